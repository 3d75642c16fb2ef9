"""Embedded llama.cpp (`llama-cpp-python`): the default backend, on a laptop CPU, no server.

The model runs in a supervised child process (`agent.llm.llama_process`), so a native crash
ends one answer with a sentence instead of the app, and the next question starts a fresh
process. Requests from several sessions queue there, one generation at a time. The step schema
becomes a GBNF grammar (cached per schema in the child); the chat template is the GGUF's own.

Which model: `llamacpp:/path/model.gguf` (or `MOVIEAGENT_LLAMACPP_MODEL`) names a local file;
otherwise the default model from the hub, else the SmolLM2 fallback (see `llama_load`).
Threads: the cores this process may use (`llama_threads`), or `MOVIEAGENT_LLAMACPP_THREADS`.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from contextlib import closing
from typing import Any

from agent.errors import LLMUnavailableError
from agent.llm.base import (
    LLM,
    LLMChunk,
    LLMContextOverflowError,
    LLMHealth,
    LLMRequest,
    LLMTransientError,
    TokenUsage,
)
from agent.llm.cpu_features import REBUILD
from agent.llm.llama_load import DEFAULT_FILE, DEFAULT_REPO, fallback_model_path
from agent.llm.llama_process import LlamaProcess, ModelCrashed, ModelError, ModelTimeout
from agent.llm.llama_threads import available_cores

CONTEXT_TOKENS = 8192  # Qwen2.5 and SmolLM2 are trained for 32k and 8k; 8k costs ~230 MB of KV

__all__ = ["CONTEXT_TOKENS", "LlamaCppLLM", "fallback_model_path"]


class LlamaCppLLM(LLM):
    caches_prompt = True  # one model process, its KV cache kept from one request to the next

    def __init__(
        self,
        model_path: str | None = None,
        *,
        n_ctx: int = CONTEXT_TOKENS,
        n_threads: int | None = None,
        seed: int = 0,
    ) -> None:
        self.model_path = model_path
        self.n_ctx = n_ctx
        self.n_threads = n_threads or available_cores()
        self._source = model_path or f"{DEFAULT_REPO}/{DEFAULT_FILE}"
        self.process = LlamaProcess(
            {
                "model_path": model_path,
                "n_ctx": n_ctx,
                "n_threads": self.n_threads,
                "n_threads_batch": self.n_threads,
                "seed": seed,
            }
        )

    def describe(self) -> str:
        threads = f"{self.n_threads} thread{'s' if self.n_threads > 1 else ''}"
        return f"llama.cpp in a child process ({self._source}, {threads})"

    def context_window(self) -> int:
        """The context the model process runs with (capped at the model's trained length)."""
        ready = self.process.ready
        return int(ready["n_ctx"]) if ready and ready.get("n_ctx") else self.n_ctx

    def health(self) -> LLMHealth:
        try:
            ready = self._start()
        except LLMUnavailableError as e:
            return LLMHealth(reachable=False, detail=str(e))
        self._source = ready["source"]
        return LLMHealth(
            reachable=True, model=self._source, detail=self.describe(), note=self._crash_note()
        )

    def stream(self, request: LLMRequest) -> Iterator[LLMChunk]:
        body = {
            "messages": [m.model_dump() for m in request.messages],
            "json_schema": request.json_schema,
            "stop": request.stop,
            "max_tokens": request.max_new_tokens,
        }
        try:
            with closing(self.process.generate(body, timeout_s=request.timeout_s)) as messages:
                yield from self._chunks(messages)
        except ModelCrashed as e:
            raise LLMUnavailableError(self._crash_sentence(e)) from e
        except ModelTimeout as e:
            raise LLMTransientError(f"{self.describe()}: {e}") from e
        except ModelError as e:
            raise self._error(e) from e

    @staticmethod
    def _chunks(messages: Iterator[dict[str, Any]]) -> Iterator[LLMChunk]:
        for message in messages:
            if message["kind"] == "chunk":
                yield LLMChunk(text=message["text"])
                continue
            if message["kind"] == "started":
                yield LLMChunk(waited_s=message["waited_s"])
                continue
            usage = TokenUsage(
                prompt_tokens=message["prompt_tokens"],
                completion_tokens=message["completion_tokens"],
                cached_prompt_tokens=message.get("cached_tokens", 0),
            )
            yield LLMChunk(finish_reason=message["finish"], usage=usage)

    def close(self) -> None:
        """End the model process (a later request starts a new one)."""
        self.process.stop()

    def _start(self) -> dict[str, Any]:
        try:
            return self.process.start()
        except ModelCrashed as e:
            raise LLMUnavailableError(self._crash_sentence(e)) from e
        except ModelError as e:
            raise self._error(e) from e

    def _error(self, e: ModelError) -> Exception:
        if e.kind == "context":
            return LLMContextOverflowError(_overflow_sentence(str(e), self.n_ctx))
        if e.kind == "load":
            return LLMUnavailableError(str(e))
        return LLMTransientError(f"{self.describe()}: {e}")

    def _crash_sentence(self, e: ModelCrashed) -> str:
        if e.reason == "SIGILL":  # an instruction this CPU lacks: restarting cannot help
            return (
                f"The local model ({self._source}) stopped while {e.during} on an instruction "
                "this CPU does not have (SIGILL): llama-cpp-python was compiled for another "
                f"CPU. Rebuild it here with `{REBUILD}`."
            )
        return (
            f"The local model ({self._source}) stopped while {e.during} ({e.reason}); it "
            "restarts by itself: ask again."
        )

    def _crash_note(self) -> str:
        if not self.process.crashes:
            return ""
        at, reason = self.process.crashes[-1]
        count = len(self.process.crashes)
        times = "once" if count == 1 else f"{count} times"
        return (
            f"The model process crashed {times}, last at {time.strftime('%H:%M:%S', time.localtime(at))} "
            f"({reason}), and was restarted."
        )


def _overflow_sentence(message: str, n_ctx: int) -> str:
    """From llama-cpp-python's "Requested tokens (4666) exceed context window of 4096"."""
    needed = re.search(r"\((\d+)\)", message)
    window = re.search(r"window of (\d+)", message)
    return (
        f"This question and what the tools returned need "
        f"{needed.group(1) + ' tokens' if needed else 'more tokens'}, more than the model's "
        f"context window of {window.group(1) if window else n_ctx}: ask a narrower question or "
        "start a new conversation (or raise MOVIEAGENT_LLAMACPP_CONTEXT)."
    )
