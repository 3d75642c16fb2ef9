"""LLM settings: explicit `--llm` value, then `MOVIEAGENT_LLM`, then the embedded default.

Spec forms:
- `tgi+http://HOST:PORT`            text-generation-inference (grammar on)
- `openai+http://HOST:PORT/v1`      any OpenAI-compatible server (vLLM, SGLang, Ollama, ...)
- `llamacpp` or `llamacpp:/path/model.gguf`   embedded llama.cpp (the default), in a child process;
  `MOVIEAGENT_LLAMACPP_THREADS` (default: the cores available) and `MOVIEAGENT_LLAMACPP_CONTEXT`
  (tokens, default 8192) tune it
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from agent.errors import LLMConfigurationError
from agent.llm.base import MAX_NEW_TOKENS

LLMKind = Literal["tgi", "openai", "llamacpp"]
DEFAULT_SPEC = "llamacpp"


@dataclass(frozen=True)
class LLMSettings:
    kind: LLMKind
    url: str | None = None  # tgi / openai base URL
    model_path: str | None = None  # llamacpp: a local GGUF file; None = the default model
    model: str | None = None  # openai: the served model name; tgi: informational
    api_key: str | None = None  # HF_TOKEN for TGI endpoints, OPENAI_API_KEY for openai
    timeout_s: float = 60.0
    max_new_tokens: int = MAX_NEW_TOKENS
    tool_first: bool = False  # the first step must call a tool (MOVIEAGENT_TOOL_FIRST=1)
    threads: int | None = None  # llamacpp: MOVIEAGENT_LLAMACPP_THREADS; None = cores available
    context_tokens: int | None = None  # llamacpp: MOVIEAGENT_LLAMACPP_CONTEXT; None = default

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, spec: str | None = None) -> LLMSettings:
        env = os.environ if env is None else env
        raw = (spec or env.get("MOVIEAGENT_LLM") or DEFAULT_SPEC).strip()
        timeout = _number(env, "MOVIEAGENT_LLM_TIMEOUT", 60.0)
        max_new = int(_number(env, "MOVIEAGENT_MAX_NEW_TOKENS", MAX_NEW_TOKENS))
        model = env.get("MOVIEAGENT_LLM_MODEL") or None
        tool_first = _flag(env, "MOVIEAGENT_TOOL_FIRST")
        if raw.startswith(("tgi+", "openai+")):
            kind, url = raw.split("+", 1)
            if not url.startswith(("http://", "https://")):
                raise LLMConfigurationError(
                    f"MOVIEAGENT_LLM={raw!r}: after '{kind}+' comes an http(s) URL, "
                    f"for example {kind}+http://localhost:8080."
                )
            key = env.get("HF_TOKEN") if kind == "tgi" else env.get("OPENAI_API_KEY")
            return cls(
                kind="tgi" if kind == "tgi" else "openai",
                url=url.rstrip("/"),
                model=model,
                api_key=key or None,
                timeout_s=timeout,
                max_new_tokens=max_new,
                tool_first=bool(tool_first),
            )
        if raw == "llamacpp" or raw.startswith("llamacpp:"):
            path = raw.partition(":")[2] or env.get("MOVIEAGENT_LLAMACPP_MODEL") or None
            return cls(
                kind="llamacpp",
                model_path=path,
                model=model,
                timeout_s=timeout,
                max_new_tokens=max_new,
                tool_first=bool(tool_first),
                threads=_count(env, "MOVIEAGENT_LLAMACPP_THREADS"),
                context_tokens=_count(env, "MOVIEAGENT_LLAMACPP_CONTEXT"),
            )
        raise LLMConfigurationError(
            f"MOVIEAGENT_LLM={raw!r} is not an LLM spec: use tgi+http://HOST:PORT, "
            "openai+http://HOST:PORT/v1, llamacpp or llamacpp:/path/model.gguf."
        )

    def describe(self) -> str:
        if self.kind == "llamacpp":
            return f"embedded llama.cpp ({self.model_path or 'default model'})"
        return f"{self.kind} at {self.url}"


def _number(env: Mapping[str, str], name: str, default: float) -> float:
    value = env.get(name)
    if not value:
        return default
    try:
        return float(value)
    except ValueError as e:
        raise LLMConfigurationError(f"{name}={value!r} is not a number.") from e


def _count(env: Mapping[str, str], name: str) -> int | None:
    value = env.get(name, "").strip()
    if not value:
        return None
    if not value.isdigit() or int(value) < 1:
        raise LLMConfigurationError(f"{name}={value!r} is not a whole number of at least 1.")
    return int(value)


def _flag(env: Mapping[str, str], name: str) -> bool | None:
    value = env.get(name, "").strip().lower()
    if not value:
        return None
    if value in {"1", "true", "yes", "on"}:
        return True
    if value in {"0", "false", "no", "off"}:
        return False
    raise LLMConfigurationError(f"{name}={env[name]!r} is not a yes/no value: use 1 or 0.")
