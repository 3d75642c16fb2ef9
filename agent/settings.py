"""The agent layer's settings: `AgentSettings` reads them (explicit value, environment, `.env`,
default; see `semantic_layer.settings_base`), `LLMSettings` is the model they choose.

`--llm` or `MOVIEAGENT_LLM` forms:
- `tgi+http://HOST:PORT`            text-generation-inference (grammar on)
- `openai+http://HOST:PORT/v1`      any OpenAI-compatible server (vLLM, SGLang, Ollama, ...)
- `llamacpp` or `llamacpp:/path/model.gguf`   embedded llama.cpp (the default), in a child process;
  `MOVIEAGENT_LLAMACPP_THREADS` (default: the cores available) and `MOVIEAGENT_LLAMACPP_CONTEXT`
  (tokens, default 8192) tune it
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import Field, SecretStr, TypeAdapter, ValidationError, ValidationInfo, field_validator

from agent.errors import LLMConfigurationError
from agent.llm.base import MAX_NEW_TOKENS
from semantic_layer.settings_base import LayerSettings, variable

LLMKind = Literal["tgi", "openai", "llamacpp"]
DEFAULT_SPEC = "llamacpp"
_FLAG = TypeAdapter(bool)  # pydantic's yes/no words: 1/0, true/false, yes/no, on/off


class AgentSettings(LayerSettings):
    """Every variable the agent layer reads, typed; `llm()` turns them into `LLMSettings`."""

    llm_spec: str = Field(DEFAULT_SPEC, validation_alias="MOVIEAGENT_LLM")
    llm_model: str | None = Field(None, validation_alias="MOVIEAGENT_LLM_MODEL")
    llm_timeout_s: float = Field(60.0, validation_alias="MOVIEAGENT_LLM_TIMEOUT")
    max_new_tokens: int = Field(MAX_NEW_TOKENS, validation_alias="MOVIEAGENT_MAX_NEW_TOKENS")
    tool_first: bool = Field(False, validation_alias="MOVIEAGENT_TOOL_FIRST")
    llamacpp_model: str | None = Field(None, validation_alias="MOVIEAGENT_LLAMACPP_MODEL")
    llamacpp_threads: int | None = Field(None, validation_alias="MOVIEAGENT_LLAMACPP_THREADS")
    llamacpp_context: int | None = Field(None, validation_alias="MOVIEAGENT_LLAMACPP_CONTEXT")
    hf_token: SecretStr | None = Field(None, validation_alias="HF_TOKEN")
    openai_api_key: SecretStr | None = Field(None, validation_alias="OPENAI_API_KEY")

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> AgentSettings:
        """From `env` alone, or (None) from the environment and `.env`."""
        return cls.read(env, error=LLMConfigurationError)

    @field_validator("llm_timeout_s", "max_new_tokens", mode="before")
    @classmethod
    def _number(cls, value: Any, info: ValidationInfo) -> float:
        try:
            number = float(value)
        except (TypeError, ValueError):
            number = None
        if number is None or number != number:  # not a number, or NaN
            raise ValueError(f"{variable(cls, str(info.field_name))}={value!r} is not a number.")
        return int(number) if info.field_name == "max_new_tokens" else number

    @field_validator("llamacpp_threads", "llamacpp_context", mode="before")
    @classmethod
    def _count(cls, value: Any, info: ValidationInfo) -> int | None:
        if value is None:
            return None
        text = str(value).strip()
        if not text.isdigit() or int(text) < 1:
            raise ValueError(
                f"{variable(cls, str(info.field_name))}={value!r} is not a whole number of "
                "at least 1."
            )
        return int(text)

    @field_validator("tool_first", mode="before")
    @classmethod
    def _flag(cls, value: Any) -> bool:
        try:
            return _FLAG.validate_python(value.strip() if isinstance(value, str) else value)
        except ValidationError:
            raise ValueError(
                f"MOVIEAGENT_TOOL_FIRST={value!r} is not a yes/no value: use 1 or 0."
            ) from None

    def llm(self, spec: str | None = None) -> LLMSettings:
        """The model `spec` (else `MOVIEAGENT_LLM`) names, or a sentence saying the forms."""
        raw = (spec or self.llm_spec).strip()
        common: dict[str, Any] = {
            "model": self.llm_model,
            "timeout_s": self.llm_timeout_s,
            "max_new_tokens": self.max_new_tokens,
            "tool_first": self.tool_first,
        }
        if raw.startswith(("tgi+", "openai+")):
            kind, url = raw.split("+", 1)
            if not url.startswith(("http://", "https://")):
                raise LLMConfigurationError(
                    f"MOVIEAGENT_LLM={raw!r}: after '{kind}+' comes an http(s) URL, "
                    f"for example {kind}+http://localhost:8080."
                )
            key = self.hf_token if kind == "tgi" else self.openai_api_key
            return LLMSettings(
                kind="tgi" if kind == "tgi" else "openai",
                url=url.rstrip("/"),
                api_key=key,
                **common,
            )
        if raw == "llamacpp" or raw.startswith("llamacpp:"):
            return LLMSettings(
                kind="llamacpp",
                model_path=raw.partition(":")[2] or self.llamacpp_model,
                threads=self.llamacpp_threads,
                context_tokens=self.llamacpp_context,
                **common,
            )
        raise LLMConfigurationError(
            f"MOVIEAGENT_LLM={raw!r} is not an LLM spec: use tgi+http://HOST:PORT, "
            "openai+http://HOST:PORT/v1, llamacpp or llamacpp:/path/model.gguf."
        )


@dataclass(frozen=True)
class LLMSettings:
    """The model the agent talks to, and how (built by `AgentSettings.llm`)."""

    kind: LLMKind
    url: str | None = None  # tgi / openai base URL
    model_path: str | None = None  # llamacpp: a local GGUF file; None = the default model
    model: str | None = None  # openai: the served model name; tgi: informational
    api_key: SecretStr | None = None  # HF_TOKEN for TGI endpoints, OPENAI_API_KEY for openai
    timeout_s: float = 60.0
    max_new_tokens: int = MAX_NEW_TOKENS
    tool_first: bool = False  # the first step must call a tool (MOVIEAGENT_TOOL_FIRST=1)
    threads: int | None = None  # llamacpp: MOVIEAGENT_LLAMACPP_THREADS; None = cores available
    context_tokens: int | None = None  # llamacpp: MOVIEAGENT_LLAMACPP_CONTEXT; None = default

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, spec: str | None = None) -> LLMSettings:
        """`AgentSettings.from_env(env).llm(spec)`: explicit spec, then `MOVIEAGENT_LLM`."""
        return AgentSettings.from_env(env).llm(spec)

    def describe(self) -> str:
        if self.kind == "llamacpp":
            return f"embedded llama.cpp ({self.model_path or 'default model'})"
        return f"{self.kind} at {self.url}"
