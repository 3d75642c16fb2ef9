"""The base of each layer's settings object: typed fields named by their environment variables.

A value comes from, first to last: an explicit argument, the environment, a `.env` file in the
working directory (`MOVIEAGENT_ENV_FILE` names another file; empty reads none), the default. An
empty value counts as unset (Compose passes `${NAME:-}` as an empty string). Passwords and
tokens are `SecretStr`: they print as `**********` in reprs and logs. A bad value is a sentence
that names the variable, raised as the layer's own configuration error.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from contextvars import ContextVar
from typing import Any, Self

from pydantic import ValidationError
from pydantic_settings import BaseSettings, PydanticBaseSettingsSource, SettingsConfigDict

from semantic_layer.errors import ConfigurationError

ENV_FILE_VARIABLE = "MOVIEAGENT_ENV_FILE"
DEFAULT_ENV_FILE = ".env"
# set while a settings object is read from a given mapping (tests, containers' environments)
_ONLY_GIVEN: ContextVar[bool] = ContextVar("settings_only_given", default=False)


class LayerSettings(BaseSettings):
    """Subclass it with fields that carry `validation_alias="ENV_NAME"`; build it with `read`."""

    model_config = SettingsConfigDict(
        env_file_encoding="utf-8", env_ignore_empty=True, extra="ignore", frozen=True
    )

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        if _ONLY_GIVEN.get():
            return (init_settings,)
        return (init_settings, env_settings, dotenv_settings)  # the environment wins over .env

    @classmethod
    def read(
        cls,
        env: Mapping[str, str] | None = None,
        *,
        error: type[Exception] = ConfigurationError,
        **explicit: Any,
    ) -> Self:
        """The settings from `env` alone, or (None) from the environment and `.env`.

        `explicit` values (by variable name) win over both; a bad value raises `error`.
        """
        given = {k: v for k, v in (env or {}).items() if v != ""}
        chosen = {k: v for k, v in explicit.items() if v is not None and v != ""}
        token = _ONLY_GIVEN.set(env is not None)
        try:
            if env is not None:
                return cls(**(given | chosen))
            return cls(_env_file=env_file(), **chosen)  # type: ignore[call-arg]
        except ValidationError as e:
            raise error(sentences(e)) from None
        finally:
            _ONLY_GIVEN.reset(token)


def env_file() -> str | None:
    """The `.env` file to read outside Docker: `$MOVIEAGENT_ENV_FILE`, else `.env` in the CWD."""
    name = os.environ.get(ENV_FILE_VARIABLE, DEFAULT_ENV_FILE)
    return name or None


def sentences(error: ValidationError) -> str:
    """One sentence per bad variable, naming it (the validators' own sentences where they gave one)."""
    said: list[str] = []
    for problem in error.errors(include_url=False):
        cause = (problem.get("ctx") or {}).get("error")
        if problem["type"] == "value_error" and cause is not None:
            said.append(str(cause))
            continue
        name = ".".join(str(part) for part in problem["loc"]) or "a setting"
        value = problem.get("input")
        said.append(
            f"{name}={value!r} is not valid: {problem['msg'][:1].lower()}{problem['msg'][1:]}."
        )
    return " ".join(said)


def variable(cls: type[BaseSettings], field: str) -> str:
    """The environment variable a field is read from."""
    alias = cls.model_fields[field].validation_alias
    return alias if isinstance(alias, str) else field
