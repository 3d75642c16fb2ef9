"""The local model server: llama-cpp-python's OpenAI-compatible server, with four additions.

    python -m agent.llm.llama_server --model PATH --host 127.0.0.1 --port 8000 [options]

takes the options of `python -m llama_cpp.server` (`--n_ctx`, `--n_threads`, `--draft_model`,
...) and serves the same API (`/v1/chat/completions`, `/v1/models`). `movieagent` starts it as
a child process (`agent.llm.llama_supervisor`); `movieagent llm serve` runs it alone. Added:

- before loading, a check that this llama.cpp build runs on this CPU (`cpu_features`), and the
  context capped at the length the model was trained for; on CPUs with AMX the model loads
  without llama.cpp's extra buffer types (see `safe_buffer_types`);
- a streamed chat completion ends with a `usage` chunk (`prompt_tokens`, `completion_tokens`
  and `prompt_tokens_details.cached_tokens`: the prompt prefix the KV cache already held), and
  a prompt longer than the context becomes an SSE `error` event (`context_length_exceeded`)
  instead of a dropped connection;
- greedy grammar-constrained steps sample grammar-last, as llama.cpp's own tools do
  (`grammar_first`): the same tokens, about twice as fast to write on a CPU; text the grammar
  forces (keys, separators, the rest of a name it admits alone) is not written token by token
  but evaluated in one batch (`forced_text`), and JSON-schema grammars space JSON as
  `json.dumps` does (`grammar_spacing`) so that those runs exist; what an answer copies from
  the question and the Observation (titles, years) is drafted from them and checked in one
  batch (`prompt_lookup`; `MOVIEAGENT_PROMPT_LOOKUP=0` switches it off);
- `GET /props` states the context the model runs with, as llama.cpp's own server does
  (`default_generation_settings.n_ctx`), so a client reaching it as `openai+...` fits its
  prompts to it;
- `--exit_with_stdin`: the process ends when its standard input closes, that is when the app
  that started it is gone, however it went (even SIGKILL), so no server outlives the app.

One line on stderr, `movieagent-llama-server: {json}`, says what was loaded (`n_ctx`) or why
not (`error`: a sentence). Everything else llama-cpp-python does unchanged: one `Llama` serves
one request at a time behind the server's lock, and reuses the longest common prompt prefix of
consecutive requests from its KV cache.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import logging
import os
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from agent.llm import grammar_first, grammar_spacing
from agent.llm.cpu_features import CPUINFO, check_build, cpu_flags

log = logging.getLogger(__name__)

STATUS_PREFIX = "movieagent-llama-server: "
CONTEXT_OVERFLOW = "exceed context window"  # llama-cpp-python's ValueError for a long prompt
#: what this server sets differently from llama_cpp.server's defaults (those of `Llama()`):
#: queued requests wait instead of cutting the running stream short; logits of the last token
#: only (all of them cost prefill time and n_ctx x vocabulary floats); no page locking
DEFAULTS = {"interrupt_requests": False, "logits_all": False, "use_mlock": False}


PROMPT_LOOKUP_ENV = "MOVIEAGENT_PROMPT_LOOKUP"


def cpu_has_amx(cpuinfo: Path = CPUINFO) -> bool:
    """Whether the CPU advertises AMX tiles (`amx_tile` among /proc/cpuinfo's flags)."""
    return "amx_tile" in (cpu_flags(cpuinfo) or set())


@contextlib.contextmanager
def safe_buffer_types(amx: bool | None = None) -> Iterator[None]:
    """While a `Llama` loads: no extra buffer types on AMX CPUs.

    There llama.cpp picks its AMX "extra buffer type" for Q4_0/Q4_1/Q4_K weights, and
    `ggml_backend_amx_mul_mat` crashes (ggml-org/llama.cpp#20824); with `use_extra_bufts =
    False` the plain CPU kernels (AVX-512/AVX2) run the weights. Neither `Llama()` nor the
    server takes an option for it, so the default params are patched while the model loads;
    this works with any wheel, however it was built. Other CPUs keep the extra buffer types.
    """
    if not (cpu_has_amx() if amx is None else amx):
        yield
        return
    import llama_cpp.llama_cpp as native

    original = native.llama_model_default_params

    def without_extra_buffers() -> Any:
        params = original()
        if hasattr(params, "use_extra_bufts"):
            params.use_extra_bufts = False
        else:  # an older llama-cpp-python: nothing to switch off, the build decides
            log.warning("llama-cpp-python has no use_extra_bufts; AMX kernels may be used")
        return params

    native.llama_model_default_params = without_extra_buffers
    try:
        yield
    finally:
        native.llama_model_default_params = original


def trained_context(model_path: str) -> int | None:
    """The context length the model was trained for, from the GGUF metadata."""
    from llama_cpp import Llama

    metadata = Llama(model_path=model_path, vocab_only=True, verbose=False).metadata
    lengths = [int(v) for k, v in metadata.items() if k.endswith(".context_length")]
    return min(lengths) if lengths else None


def with_usage(create: Callable[..., Any]) -> Callable[..., Any]:
    """`Llama.create_chat_completion`, whose streams end with a usage chunk (or an error)."""

    def create_chat_completion(llama: Any, *args: Any, **kwargs: Any) -> Any:
        if not kwargs.get("stream"):
            return create(llama, *args, **kwargs)
        return _streamed(llama, lambda: create(llama, *args, **kwargs))

    return create_chat_completion


def _streamed(
    llama: Any, start: Callable[[], Iterator[dict[str, Any]]]
) -> Iterator[dict[str, Any]]:
    before = llama.input_ids[: llama.n_tokens].tolist()  # what the KV cache holds
    generated, last = 0, {}
    try:
        for chunk in start():
            last = chunk
            if any((c.get("delta") or {}).get("content") for c in chunk.get("choices") or []):
                generated += 1
            yield chunk
    except ValueError as e:  # raised while the stream runs, after the HTTP status went out
        code = "context_length_exceeded" if CONTEXT_OVERFLOW in str(e) else "invalid_request"
        yield {"error": {"message": str(e), "type": "invalid_request_error", "code": code}}
        return
    prompt = max(0, int(llama.n_tokens) - generated)
    cached = _common_prefix(before, llama.input_ids[:prompt].tolist())
    yield {
        "id": last.get("id", ""),
        "object": "chat.completion.chunk",
        "created": last.get("created", int(time.time())),
        "model": last.get("model", ""),
        "choices": [],
        "usage": {
            "prompt_tokens": prompt,
            "completion_tokens": generated,
            "total_tokens": prompt + generated,
            "prompt_tokens_details": {"cached_tokens": cached},
        },
    }


def _common_prefix(a: list[int], b: list[int]) -> int:
    for i, (x, y) in enumerate(zip(a, b, strict=False)):
        if x != y:
            return i
    return min(len(a), len(b))


def say(**status: Any) -> None:
    """The one status line the supervisor reads."""
    print(STATUS_PREFIX + json.dumps(status), file=sys.stderr, flush=True)


def state_context(app: Any, n_ctx: int) -> None:
    """`GET /props` with the context the model runs with, where llama.cpp's own server states
    it (`default_generation_settings.n_ctx`): an OpenAI client fits its prompts to it."""

    @app.get("/props", include_in_schema=False)
    def props() -> dict[str, Any]:
        return {"default_generation_settings": {"n_ctx": n_ctx}}


def _exit_with_stdin() -> None:
    """End this process at once when the app that started it is gone (its pipe closes)."""

    def watch() -> None:
        with contextlib.suppress(OSError):
            while sys.stdin.buffer.read(4096):
                pass
        os._exit(0)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def main(argv: list[str] | None = None) -> int:
    try:
        import uvicorn
        from llama_cpp import Llama, llama_print_system_info
        from llama_cpp.server.app import create_app
        from llama_cpp.server.cli import add_args_from_model, parse_model_from_args
        from llama_cpp.server.settings import ModelSettings, ServerSettings, Settings
    except ImportError as e:
        say(
            error=f"The local model server needs llama-cpp-python[server] ({e}): run "
            "`pip install -e '.[llamacpp]'` (or `make install`), or point MOVIEAGENT_LLM at a "
            "server (tgi+http://... or openai+http://...)."
        )
        return 2
    parser = argparse.ArgumentParser(description="llama-cpp-python's server, as movieagent runs it")
    add_args_from_model(parser, Settings)
    parser.add_argument("--exit_with_stdin", action="store_true", help="end when stdin closes")
    parser.set_defaults(**DEFAULTS)
    args = parser.parse_args(argv)
    if args.exit_with_stdin:
        _exit_with_stdin()
    mismatch = check_build(llama_print_system_info().decode(errors="replace"))
    if mismatch:
        say(error=mismatch)
        return 3
    server: ServerSettings = parse_model_from_args(ServerSettings, args)  # type: ignore[assignment]
    model: ModelSettings = parse_model_from_args(ModelSettings, args)  # type: ignore[assignment]
    if model.draft_model:
        # llama-cpp-python reads every token's logits to check a draft, but sizes its buffer of
        # them from the `logits_all` it was given: with False the buffer holds n_batch rows and
        # the first prompt longer than that fails ("could not broadcast input array").
        model.logits_all = True
    try:
        trained = trained_context(model.model)
        if trained and model.n_ctx > trained:  # no more than it was trained on
            model.n_ctx = trained
        with safe_buffer_types():
            app = create_app(server_settings=server, model_settings=[model])
    except (ValueError, RuntimeError, OSError) as e:
        say(error=f"llama.cpp could not load {model.model}: {e}")
        return 4
    Llama.create_chat_completion = with_usage(Llama.create_chat_completion)  # type: ignore[method-assign]
    grammar_first.install()
    grammar_spacing.install()
    # drafts from the prompt for what an answer copies (`prompt_lookup`); "0" switches them off
    Llama._prompt_lookup = os.environ.get(PROMPT_LOOKUP_ENV, "1") != "0"  # type: ignore[attr-defined]
    state_context(app, model.n_ctx)
    say(n_ctx=model.n_ctx, n_threads=model.n_threads, model=model.model, pid=os.getpid())
    uvicorn.run(app, host=server.host, port=server.port, log_level="warning")
    return 0


if __name__ == "__main__":
    sys.exit(main())
