"""Embedded FalkorDB through `falkordblite`: a `redis-server` child process with the FalkorDB
module, its data in one file under the data directory, one server per directory shared by every
process (`embedded_server`). Reads use `GRAPH.RO_QUERY`; every query runs with the `TIMEOUT` of
`GraphSettings.query_timeout_ms`. What only this backend does (a scratch copy, a bulk build,
snapshots paused during an import, its full-text syntax) lives here, behind `Graph`.
"""

from __future__ import annotations

import contextlib
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from semantic_layer.errors import (
    GraphQueryError,
    GraphTimeoutError,
    GraphUnavailableError,
    timeout_sentence,
)
from semantic_layer.graph.base import BulkLoader, Graph, Row
from semantic_layer.graph.data_dir_lock import data_dir_lock
from semantic_layer.graph.embedded_server import (
    DB_FILE,
    DEFAULT_SNAPSHOTS,
    EmbeddedServer,
    start_error,
)
from semantic_layer.graph.queries import QueryLibrary
from semantic_layer.settings import GraphSettings

__all__ = ["DB_FILE", "DEFAULT_SNAPSHOTS", "FalkorGraph"]
# Uniqueness constraints are a Redis command in FalkorDB, not Cypher (GRAPH.CONSTRAINT).
UNIQUE_KEYS = (
    ("Movie", "movieId"),
    ("User", "userId"),
    ("Genre", "name"),
    ("Person", "name"),
    ("Tag", "name"),
)
EXCLUSIVE_WAIT_S = 5.0


class FalkorGraph(Graph):
    backend = "falkordb"
    bulk_loads = True

    def __init__(
        self,
        settings: GraphSettings,
        queries: QueryLibrary | None = None,
        *,
        server: EmbeddedServer | None = None,
    ) -> None:
        super().__init__(queries or QueryLibrary("falkordb"))
        self.settings = settings
        self.timeout_ms = settings.query_timeout_ms
        self._owns_server = server is None
        if server is None:
            try:
                import redislite  # noqa: F401
            except ImportError as e:  # pragma: no cover - a broken install
                raise GraphUnavailableError(
                    "The embedded graph needs the `falkordblite` package: pip install falkordblite."
                ) from e
            try:
                server = EmbeddedServer(settings.data_dir, settings.fsync)
            except GraphUnavailableError:
                raise
            except Exception as e:
                raise start_error(settings.data_dir, e) from e
        self._server = server
        self._db = server.db
        self._graph = self._db.select_graph(settings.graph_name)

    def sibling(self, graph_name: str) -> FalkorGraph:
        """Another graph of the same server, through this connection (closing it does nothing;
        the import builds a new graph under a private name, then swaps it in)."""
        settings = self.settings.model_copy(update={"graph_name": graph_name})
        graph = FalkorGraph(settings, self.queries, server=self._server)
        graph.timeout_ms = self.timeout_ms
        return graph

    def copy_to(self, graph_name: str, wait_s: float = 120.0) -> FalkorGraph:
        """A copy of this graph under `graph_name` (`GRAPH.COPY`), as a `sibling`. The copy runs
        in a forked child, and Redis forks one child at a time: while a snapshot or a rewrite of
        the append-only file runs, the copy is retried (a child that has stalled is stopped), and
        Redis starts none of its own while the copy runs (`EmbeddedServer.forks_paused`)."""
        import redis

        deadline = time.monotonic() + wait_s
        with self._server.forks_paused(), self._server.forks_watched() as forks:
            while True:
                try:
                    self._db.client.execute_command(
                        "GRAPH.COPY", self.settings.graph_name, graph_name
                    )
                    return self.sibling(graph_name)
                except redis.exceptions.ResponseError as e:
                    # waiting for another fork, or its own child was stopped as stalled
                    again = "fork" in str(e) or ("copy failed" in str(e) and forks.stopped)
                    if not again or time.monotonic() > deadline:
                        raise GraphQueryError(f"FalkorDB could not copy the graph: {e}") from e
                    time.sleep(0.05)

    @contextmanager
    def scratch_copy(self, prefix: str) -> Iterator[Graph | None]:
        copy = self.copy_to(f"{prefix}_{uuid.uuid4().hex[:10]}")
        try:
            yield copy
        finally:
            copy.delete_graph()

    def bulk_build(
        self, suffix: str, on_sent: Callable[[int], None] | None = None
    ) -> tuple[Graph, BulkLoader]:
        """A new graph `<name><suffix>` filled through `GRAPH.BULK` (`falkordb_bulk`)."""
        from semantic_layer.graph.falkordb_bulk import BulkLoader as FalkorBulkLoader

        staging = self.sibling(self.settings.graph_name + suffix)
        staging.delete_graph()  # left by an import that died
        return staging, FalkorBulkLoader(
            staging.client, staging.settings.graph_name, on_sent=on_sent
        )

    def replace_with(self, staging: Graph) -> None:
        """Put `staging`'s graph in this graph's place in one step (`RENAME`, which drops the
        old one)."""
        self._db.client.rename(staging.settings.graph_name, self.settings.graph_name)

    def fulltext_query(self, words: list[str], *, any_word: bool, fuzzy: bool = True) -> str:
        """RediSearch: `%word%` is a distance-1 fuzzy match, `|` is or."""
        parts = [f"%{w}%" if fuzzy and len(w) >= 4 and not w.isdigit() else w for w in words]
        return ("|" if any_word else " ").join(parts)

    @contextmanager
    def exclusive(self, purpose: str) -> Iterator[None]:
        """Hold the data directory's lock (other processes wait to attach) and refuse when
        another process is connected already: its writes would land in the middle of ours."""
        with data_dir_lock(self.settings.data_dir, purpose, EXCLUSIVE_WAIT_S):
            others = self._server.other_processes()
            if others:
                pids = sorted({name.split("-")[1] if name.count("-") >= 2 else name
                               for name in others})  # fmt: skip
                raise GraphUnavailableError(
                    f"Another process is using the embedded graph in {self.settings.data_dir} "
                    f"({len(others)} connections, process {', '.join(pids)}): close the app and "
                    f"other movieagent commands first, then run the {purpose} again."
                )
            yield

    def _run(self, text: str, params: dict[str, Any], *, write: bool) -> list[Row]:
        import redis

        if self._server.closed:
            raise GraphUnavailableError(
                f"The connection to the embedded FalkorDB in {self.settings.data_dir} is closed."
            )
        run = self._graph.query if write else self._graph.ro_query
        try:
            result = run(text, params or None, timeout=self.timeout_ms)
        except redis.exceptions.ConnectionError as e:
            raise GraphUnavailableError(
                f"Lost the embedded FalkorDB in {self.settings.data_dir}: run the command again."
            ) from e
        except redis.exceptions.ResponseError as e:
            if not write and "empty key" in str(e):
                return []  # no graph of this name yet: reading it finds nothing
            if "timed out" in str(e).lower() and self.timeout_ms:
                raise GraphTimeoutError(timeout_sentence(self.timeout_ms)) from e
            raise GraphQueryError(f"FalkorDB rejected the query: {e}") from e
        finally:
            if self._server.closed:
                # closed while this query ran (a background load): redis-py reconnected to
                # finish it, and that connection would keep the server from shutting down
                self._server.client.connection_pool.disconnect()
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
        constraints = self.read("graph/constraints")
        existing = {(row["label"], tuple(row["properties"])) for row in constraints}
        for label, prop in UNIQUE_KEYS:
            if (label, (prop,)) not in existing:
                self._db.execute_command(
                    "GRAPH.CONSTRAINT", "CREATE", self.settings.graph_name,
                    "UNIQUE", "NODE", label, "PROPERTIES", "1", prop,
                )  # fmt: skip

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

    @contextmanager
    def bulk_writes(self) -> Iterator[None]:
        """No snapshot and no rewrite of the append-only file forks during the block (either
        would copy a graph half written, and a fork beside busy writer threads is where a child
        can inherit a lock held for ever); at its end the data is saved."""
        try:
            with self._server.forks_paused():
                yield
        finally:
            self.save()

    def save(self) -> None:
        """Write the graph to disk now: a snapshot, and the append-only file compacted into one
        (after an import its log would otherwise replay every batch)."""
        self._server.compact()
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
        if self._owns_server:
            self._server.close()


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
