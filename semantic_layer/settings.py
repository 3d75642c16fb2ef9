"""Graph settings: explicit argument, then environment variable, then a default or a clear error."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from semantic_layer.errors import ConfigurationError

Backend = Literal["falkordb", "neo4j"]


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
        if uri is None:
            return cls(backend="falkordb", data_dir=directory.expanduser(), graph_name=graph_name)
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
        )

    def describe(self) -> str:
        """One line for logs and the UI, without secrets."""
        if self.backend == "neo4j":
            db = f", database {self.neo4j_database}" if self.neo4j_database else ""
            return f"Neo4j at {self.neo4j_uri}{db}"
        return f"embedded FalkorDB in {self.data_dir} (graph {self.graph_name!r})"
