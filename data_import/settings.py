"""The import's settings: the defaults of `movieagent import --source` and `--enrich` (explicit
option, environment, `.env`, default; see `semantic_layer.settings_base`)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from pydantic import Field

from data_import.errors import ImportDataError
from data_import.source import DEFAULT_URL
from semantic_layer.settings_base import LayerSettings


class ImportSettings(LayerSettings):
    movielens: str = Field(DEFAULT_URL, validation_alias="MOVIEAGENT_MOVIELENS")
    enrich: Path | None = Field(None, validation_alias="MOVIEAGENT_ENRICH")

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> ImportSettings:
        return cls.read(env, error=ImportDataError)
