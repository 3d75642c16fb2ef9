"""The MCP server's settings: `MOVIEAGENT_MCP_TOKENS`, the bearer tokens file of the HTTP
transport (explicit `--tokens`, environment, `.env`; see `semantic_layer.settings_base`)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from pydantic import Field

from semantic_layer.settings_base import LayerSettings


class McpSettings(LayerSettings):
    tokens_file: Path | None = Field(None, validation_alias="MOVIEAGENT_MCP_TOKENS")

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> McpSettings:
        return cls.read(env)
