"""Builds the LLM backend that `LLMSettings` names; backends are imported only when chosen."""

from __future__ import annotations

from pydantic import SecretStr

from agent.llm.base import LLM
from agent.settings import LLMSettings


def build_llm(settings: LLMSettings) -> LLM:
    """The backend for `settings.kind`. Nothing is contacted or loaded until the first call."""
    if settings.kind == "tgi":
        from agent.llm.tgi import TGILLM

        assert settings.url is not None
        return TGILLM(settings.url, token=_secret(settings.api_key), timeout_s=settings.timeout_s)
    if settings.kind == "openai":
        from agent.llm.openai_compat import OpenAICompatLLM

        assert settings.url is not None
        return OpenAICompatLLM(
            settings.url,
            model=settings.model,
            api_key=_secret(settings.api_key),
            timeout_s=settings.timeout_s,
        )
    from agent.llm.llamacpp import CONTEXT_TOKENS, LlamaCppLLM

    return LlamaCppLLM(
        settings.model_path,
        n_ctx=settings.context_tokens or CONTEXT_TOKENS,
        n_threads=settings.threads,
        timeout_s=settings.timeout_s,
    )


def _secret(value: SecretStr | None) -> str | None:
    """The token itself, for the one place that sends it (an Authorization header)."""
    return value.get_secret_value() if value is not None else None
