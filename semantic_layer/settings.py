"""Graph settings: explicit argument, then environment variable, then a default or a clear error."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from semantic_layer.errors import ConfigurationError

Backend = Literal["falkordb", "neo4j"]
DEFAULT_QUERY_TIMEOUT_MS = 20_000
# The embedded graph's append-only file is fsynced before a write is acknowledged (`always`,
# about 5 ms a Memory write, see benchmarks/write_durability.py), or once a second (`everysec`:
# a crash of the server loses nothing, a crash of the machine at most the last second).
FSYNC_MODES = ("always", "everysec")
DEFAULT_FSYNC = "always"


def _timeout_ms(env: Mapping[str, str]) -> int:
    text = env.get("MOVIEAGENT_QUERY_TIMEOUT_MS") or str(DEFAULT_QUERY_TIMEOUT_MS)
    if not text.isascii() or not text.isdigit() or not 0 < int(text) <= 86_400_000:
        raise ConfigurationError(
            f"MOVIEAGENT_QUERY_TIMEOUT_MS={text!r} is not a time limit: use milliseconds from 1 "
            f"to 86400000 (default {DEFAULT_QUERY_TIMEOUT_MS})."
        )
    return int(text)


def _fsync(env: Mapping[str, str]) -> str:
    mode = env.get("MOVIEAGENT_FSYNC") or DEFAULT_FSYNC
    if mode not in FSYNC_MODES:
        raise ConfigurationError(
            f"MOVIEAGENT_FSYNC={mode!r}: use always (default: every write is on disk before it "
            "is acknowledged) or everysec (faster; a crash of the machine loses at most the last "
            "second of writes)."
        )
    return mode


def default_data_dir(env: Mapping[str, str]) -> Path:
    """Per-user data directory: `$XDG_DATA_HOME/movieagent`, else `~/.local/share/movieagent`."""
    base = env.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "movieagent"


@dataclass(frozen=True)
class GraphSettings:
    """Where the graph lives. `NEO4J_URI` selects Neo4j; otherwise the embedded FalkorDB."""

    backend: Backend
    data_dir: Path
    graph_name: str = "movies"
    neo4j_uri: str | None = None
    neo4j_username: str = "neo4j"
    neo4j_password: str | None = None
    neo4j_database: str | None = None
    query_timeout_ms: int = DEFAULT_QUERY_TIMEOUT_MS  # MOVIEAGENT_QUERY_TIMEOUT_MS
    fsync: str = DEFAULT_FSYNC  # MOVIEAGENT_FSYNC: the embedded graph's append-only file

    @classmethod
    def from_env(
        cls,
        env: Mapping[str, str] | None = None,
        *,
        data_dir: Path | str | None = None,
        neo4j_uri: str | None = None,
    ) -> GraphSettings:
        env = os.environ if env is None else env
        uri = neo4j_uri or env.get("NEO4J_URI") or None
        directory = Path(data_dir or env.get("MOVIEAGENT_DATA_DIR") or default_data_dir(env))
        graph_name = env.get("MOVIEAGENT_GRAPH", "movies")
        if not graph_name.replace("_", "").replace("-", "").isalnum():
            raise ConfigurationError(
                f"MOVIEAGENT_GRAPH={graph_name!r} is not a valid graph name: "
                "use letters, digits, '-' and '_'."
            )
        timeout_ms = _timeout_ms(env)
        if uri is None:
            return cls(backend="falkordb", data_dir=directory.expanduser(), graph_name=graph_name,
                       query_timeout_ms=timeout_ms, fsync=_fsync(env))  # fmt: skip
        if uri.split("://", 1)[0] not in {
            "neo4j",
            "neo4j+s",
            "neo4j+ssc",
            "bolt",
            "bolt+s",
            "bolt+ssc",
        }:
            raise ConfigurationError(
                f"NEO4J_URI={uri!r} is not a Neo4j address: "
                "use neo4j://HOST:7687 or bolt://HOST:7687 (neo4j+s:// for Aura)."
            )
        password = env.get("NEO4J_PASSWORD")
        if not password:
            raise ConfigurationError(
                "NEO4J_URI is set but NEO4J_PASSWORD is not: set NEO4J_PASSWORD "
                "(and NEO4J_USERNAME if it is not 'neo4j')."
            )
        return cls(
            backend="neo4j",
            data_dir=directory.expanduser(),
            graph_name=graph_name,
            neo4j_uri=uri,
            neo4j_username=env.get("NEO4J_USERNAME") or "neo4j",
            neo4j_password=password,
            neo4j_database=env.get("NEO4J_DATABASE") or None,
            query_timeout_ms=timeout_ms,
        )

    def describe(self) -> str:
        """One line for logs and the UI, without secrets."""
        if self.backend == "neo4j":
            db = f", database {self.neo4j_database}" if self.neo4j_database else ""
            return f"Neo4j at {self.neo4j_uri}{db}"
        return f"embedded FalkorDB in {self.data_dir} (graph {self.graph_name!r})"
