"""Graph settings, the semantic layer's one settings object (see `settings_base` for the order:
explicit argument, environment, `.env`, default; a bad value is a sentence naming the variable)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

from pydantic import Field, SecretStr, field_validator, model_validator

from semantic_layer.settings_base import LayerSettings

Backend = Literal["falkordb", "neo4j"]
DEFAULT_QUERY_TIMEOUT_MS = 20_000
# The embedded graph's append-only file is fsynced before a write is acknowledged (`always`,
# about 5 ms a Memory write, see benchmarks/write_durability.py), or once a second (`everysec`:
# a crash of the server loses nothing, a crash of the machine at most the last second).
FSYNC_MODES = ("always", "everysec")
DEFAULT_FSYNC = "always"
NEO4J_SCHEMES = {"neo4j", "neo4j+s", "neo4j+ssc", "bolt", "bolt+s", "bolt+ssc"}


def default_data_dir(env: Mapping[str, str]) -> Path:
    """Per-user data directory: `$XDG_DATA_HOME/movieagent`, else `~/.local/share/movieagent`."""
    base = env.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "movieagent"


class GraphSettings(LayerSettings):
    """Where the graph lives (`NEO4J_URI` selects Neo4j; otherwise the embedded FalkorDB), and
    the folders of declared tools beside `cypher/tools/`."""

    neo4j_uri: str | None = Field(None, validation_alias="NEO4J_URI")
    neo4j_username: str = Field("neo4j", validation_alias="NEO4J_USERNAME")
    neo4j_password: SecretStr | None = Field(None, validation_alias="NEO4J_PASSWORD")
    neo4j_database: str | None = Field(None, validation_alias="NEO4J_DATABASE")
    data_dir: Path = Field(validation_alias="MOVIEAGENT_DATA_DIR")
    xdg_data_home: str | None = Field(
        None, validation_alias="XDG_DATA_HOME", exclude=True, repr=False
    )  # only for the default data_dir
    graph_name: str = Field("movies", validation_alias="MOVIEAGENT_GRAPH")
    query_timeout_ms: int = Field(
        DEFAULT_QUERY_TIMEOUT_MS, validation_alias="MOVIEAGENT_QUERY_TIMEOUT_MS"
    )
    fsync: str = Field(DEFAULT_FSYNC, validation_alias="MOVIEAGENT_FSYNC")  # embedded graph only
    tools_dir: str = Field("", validation_alias="MOVIEAGENT_TOOLS_DIR")  # os.pathsep-separated

    @classmethod
    def from_env(
        cls,
        env: Mapping[str, str] | None = None,
        *,
        data_dir: Path | str | None = None,
        neo4j_uri: str | None = None,
    ) -> GraphSettings:
        """From `env` alone, or (None) from the environment and `.env`; arguments win."""
        return cls.read(
            env,
            MOVIEAGENT_DATA_DIR=str(data_dir) if data_dir else None,
            NEO4J_URI=neo4j_uri,
        )

    @property
    def backend(self) -> Backend:
        return "falkordb" if self.neo4j_uri is None else "neo4j"

    @property
    def extra_tool_dirs(self) -> list[Path]:
        """The folders of `MOVIEAGENT_TOOLS_DIR`, in order."""
        return [Path(p).expanduser() for p in self.tools_dir.split(os.pathsep) if p]

    @model_validator(mode="before")
    @classmethod
    def _default_data_dir(cls, data: Any) -> Any:
        if isinstance(data, dict) and not data.get("MOVIEAGENT_DATA_DIR"):
            xdg = {"XDG_DATA_HOME": data.get("XDG_DATA_HOME") or ""}
            data = {**data, "MOVIEAGENT_DATA_DIR": default_data_dir(xdg)}
        return data

    @field_validator("data_dir")
    @classmethod
    def _expand(cls, path: Path) -> Path:
        return path.expanduser()

    @field_validator("graph_name")
    @classmethod
    def _graph_name(cls, name: str) -> str:
        if not name.replace("_", "").replace("-", "").isalnum():
            raise ValueError(
                f"MOVIEAGENT_GRAPH={name!r} is not a valid graph name: "
                "use letters, digits, '-' and '_'."
            )
        return name

    @field_validator("query_timeout_ms", mode="before")
    @classmethod
    def _timeout_ms(cls, value: Any) -> int:
        text = str(value)
        if not text.isascii() or not text.isdigit() or not 0 < int(text) <= 86_400_000:
            raise ValueError(
                f"MOVIEAGENT_QUERY_TIMEOUT_MS={text!r} is not a time limit: use milliseconds "
                f"from 1 to 86400000 (default {DEFAULT_QUERY_TIMEOUT_MS})."
            )
        return int(text)

    @field_validator("fsync")
    @classmethod
    def _fsync(cls, mode: str) -> str:
        if mode not in FSYNC_MODES:
            raise ValueError(
                f"MOVIEAGENT_FSYNC={mode!r}: use always (default: every write is on disk before "
                "it is acknowledged) or everysec (faster; a crash of the machine loses at most "
                "the last second of writes)."
            )
        return mode

    @model_validator(mode="after")
    def _neo4j(self) -> GraphSettings:
        uri = self.neo4j_uri
        if uri is None:
            return self
        if uri.split("://", 1)[0] not in NEO4J_SCHEMES:
            raise ValueError(
                f"NEO4J_URI={uri!r} is not a Neo4j address: "
                "use neo4j://HOST:7687 or bolt://HOST:7687 (neo4j+s:// for Aura)."
            )
        if self.neo4j_password is None:
            raise ValueError(
                "NEO4J_URI is set but NEO4J_PASSWORD is not: set NEO4J_PASSWORD "
                "(and NEO4J_USERNAME if it is not 'neo4j')."
            )
        return self

    def describe(self) -> str:
        """One line for logs and the UI, without secrets."""
        if self.backend == "neo4j":
            db = f", database {self.neo4j_database}" if self.neo4j_database else ""
            return f"Neo4j at {self.neo4j_uri}{db}"
        return f"embedded FalkorDB in {self.data_dir} (graph {self.graph_name!r})"
