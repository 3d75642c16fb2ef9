"""Embedded llama.cpp: the default backend, on a laptop CPU, with nothing to install or start.

The model runs in llama-cpp-python's OpenAI-compatible server, a supervised child process on a
loopback port (`agent.llm.llama_supervisor`), and is reached through the same backend as any
served model (`agent.llm.openai_compat`). So a native crash ends one answer with a sentence
instead of the app, and the next question starts a fresh server. Requests from this app's
sessions queue here, one generation at a time (the server has one model and serves one request
at a time anyway; its KV cache then carries the shared prompt prefix from one step to the
next); the time spent waiting is reported, not counted against a call's timeout. The step
schema goes out as `response_format` `{"type": "json_object", "schema": ...}`, which the server
turns into a grammar; the chat template is the GGUF's own.

Which model: `llamacpp:/path/model.gguf` (or `MOVIEAGENT_LLAMACPP_MODEL`) names a local file;
otherwise the default model from the hub, else the SmolLM2 fallback (see `llama_model`).
Threads: the cores this process may use (`llama_threads`), or `MOVIEAGENT_LLAMACPP_THREADS`.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Iterator
from typing import Any

from agent.errors import LLMUnavailableError
from agent.llm.base import (
    LLM,
    LLMChunk,
    LLMContextOverflowError,
    LLMHealth,
    LLMRequest,
    LLMTransientError,
)
from agent.llm.cpu_features import REBUILD
from agent.llm.llama_model import DEFAULT_FILE, DEFAULT_REPO, choose_model, fallback_model_path
from agent.llm.llama_supervisor import LlamaServerProcess, Ready, ServerCrashed, ServerFailed
from agent.llm.llama_threads import available_cores
from agent.llm.openai_compat import OpenAICompatLLM

#: llama_cpp.server's request default is 1.1 (`Llama.create_chat_completion`'s, which the app used
#: before, is 1.0): a penalty on every repeated token, even under greedy decoding, bends JSON
#: steps, which repeat quotes, keys and names by design
SAMPLING = {"repeat_penalty": 1.0}
CONTEXT_TOKENS = 8192  # Qwen2.5 and SmolLM2 are trained for 32k and 8k; 8k costs ~230 MB of KV

__all__ = ["CONTEXT_TOKENS", "LlamaCppLLM", "fallback_model_path", "server_options"]


def server_options(
    model_path: str, *, n_ctx: int, n_threads: int, seed: int = 0, **extra: Any
) -> dict[str, Any]:
    """The options of `python -m agent.llm.llama_server` (llama_cpp.server's) for this model."""
    return {
        "model": model_path,
        "model_alias": model_path.rsplit("/", 1)[-1],
        "n_ctx": n_ctx,
        "n_threads": n_threads,
        "n_threads_batch": n_threads,
        "seed": seed,
        "verbose": False,
        **extra,
    }


class LlamaCppLLM(LLM):
    caches_prompt = True  # one model server, its KV cache kept from one request to the next

    def __init__(
        self,
        model_path: str | None = None,
        *,
        n_ctx: int = CONTEXT_TOKENS,
        n_threads: int | None = None,
        seed: int = 0,
        timeout_s: float = 60.0,
        **server_extra: Any,
    ) -> None:
        self.model_path = model_path
        self.n_ctx = n_ctx
        self.n_threads = n_threads or available_cores()
        self.seed = seed
        self.timeout_s = timeout_s
        self.server_extra = server_extra
        self._source = model_path or f"{DEFAULT_REPO}/{DEFAULT_FILE}"
        self._warning = ""
        self.process: LlamaServerProcess | None = None  # once the model file is chosen
        self._client: OpenAICompatLLM | None = None
        self._client_url = ""
        self._queue = threading.Lock()  # one generation at a time

    def describe(self) -> str:
        threads = f"{self.n_threads} thread{'s' if self.n_threads > 1 else ''}"
        return f"llama.cpp server in a child process ({self._source}, {threads})"

    def context_window(self) -> int:
        """The context the server runs with (capped at the model's trained length)."""
        ready = self.process.ready if self.process else None
        return ready.n_ctx if ready else self.n_ctx

    def health(self) -> LLMHealth:
        try:
            self._start()
        except LLMUnavailableError as e:
            return LLMHealth(reachable=False, detail=str(e))
        note = " ".join(s for s in (self._warning, self._crash_note()) if s)
        return LLMHealth(reachable=True, model=self._source, detail=self.describe(), note=note)

    def stream(self, request: LLMRequest) -> Iterator[LLMChunk]:
        queued = time.monotonic()
        with self._queue:
            client = self._start()
            yield LLMChunk(waited_s=time.monotonic() - queued)
            try:
                yield from client.stream(request)
            except LLMContextOverflowError as e:
                raise LLMContextOverflowError(_overflow_sentence(str(e), self.n_ctx)) from e
            except (LLMTransientError, LLMUnavailableError) as e:
                reason = self._crashed("answering")
                if reason is not None:
                    raise LLMUnavailableError(self._crash_sentence(reason, "answering")) from e
                raise

    def close(self) -> None:
        """End the model server (a later request starts a new one)."""
        if self.process is not None:
            self.process.stop()

    def _start(self) -> OpenAICompatLLM:
        if self.process is None:
            choice = choose_model(self.model_path)
            self._source, self._warning = choice.source, choice.warning
            options = server_options(
                choice.path,
                n_ctx=self.n_ctx,
                n_threads=self.n_threads,
                seed=self.seed,
                **self.server_extra,
            )
            self.process = LlamaServerProcess(options)
        try:
            ready = self.process.start()
        except ServerCrashed as e:
            raise LLMUnavailableError(self._crash_sentence(e.reason, e.during)) from e
        except ServerFailed as e:
            raise LLMUnavailableError(str(e)) from e
        return self._client_for(ready)

    def _client_for(self, ready: Ready) -> OpenAICompatLLM:
        if self._client is None or self._client_url != ready.url:
            self._client = OpenAICompatLLM(
                ready.url,
                model=str(self.process.options["model_alias"]) if self.process else None,
                grammar="json_object",
                timeout_s=self.timeout_s,
                extra_body=SAMPLING,
            )
            self._client_url = ready.url
        return self._client

    def _crashed(self, during: str) -> str | None:
        """Why the server died, if it did (it is then reaped: the next request restarts it)."""
        if self.process is None or not self.process.exited(within_s=2.0):
            return None
        return self.process.reap(during) or "it exited"

    def _crash_sentence(self, reason: str, during: str) -> str:
        if reason.startswith("SIGILL"):  # an instruction this CPU lacks: restarting cannot help
            return (
                f"The local model ({self._source}) stopped while {during} on an instruction "
                "this CPU does not have (SIGILL): llama-cpp-python was compiled for another "
                f"CPU. Rebuild it here with `{REBUILD}`."
            )
        return (
            f"The local model ({self._source}) stopped while {during} ({reason}); it "
            "restarts by itself: ask again."
        )

    def _crash_note(self) -> str:
        if self.process is None or not self.process.crashes:
            return ""
        at, reason = self.process.crashes[-1]
        count = len(self.process.crashes)
        times = "once" if count == 1 else f"{count} times"
        return (
            f"The model server crashed {times}, last at "
            f"{time.strftime('%H:%M:%S', time.localtime(at))} ({reason}), and was restarted."
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
