"""The MCP server's settings (explicit option, environment, `.env`; see
`semantic_layer.settings_base`): `MOVIEAGENT_MCP_TOKENS`, the bearer tokens file of the HTTP
transport; `MOVIEAGENT_MCP_AUTH_SERVER`, an OAuth authorization server that issues those tokens
(only then is protected-resource metadata served); `MOVIEAGENT_MCP_PUBLIC_URL`, the address
clients reach the server at (`https://movies.example.org/mcp`), named in that metadata."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from pydantic import AnyHttpUrl, Field

from semantic_layer.settings_base import LayerSettings


class McpSettings(LayerSettings):
    tokens_file: Path | None = Field(None, validation_alias="MOVIEAGENT_MCP_TOKENS")
    auth_server: AnyHttpUrl | None = Field(None, validation_alias="MOVIEAGENT_MCP_AUTH_SERVER")
    public_url: AnyHttpUrl | None = Field(None, validation_alias="MOVIEAGENT_MCP_PUBLIC_URL")

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> McpSettings:
        return cls.read(env)
