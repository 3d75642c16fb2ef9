"""The graph interface every backend implements: run a named query, read or write, get dicts."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from types import TracebackType
from typing import Any, Self

from semantic_layer.graph.queries import QueryLibrary

Row = dict[str, Any]


class Graph(ABC):
    """A graph database reached through named, parameterized queries only.

    `read` runs in a read transaction (read routing on Neo4j, `GRAPH.RO_QUERY` on
    FalkorDB): a read query that tries to write fails instead of changing the graph.
    """

    backend: str
    # Longest a query may run, in ms (None: no limit); a query stopped by it raises
    # `GraphTimeoutError`. Set from `GraphSettings.query_timeout_ms` by the backends.
    timeout_ms: int | None = None

    def __init__(self, queries: QueryLibrary) -> None:
        self.queries = queries

    @contextmanager
    def unbounded(self) -> Iterator[None]:
        """No query time limit inside the block (the import's large batched writes)."""
        before, self.timeout_ms = self.timeout_ms, None
        try:
            yield
        finally:
            self.timeout_ms = before

    @contextmanager
    def exclusive(self, purpose: str) -> Iterator[None]:
        """Sole use of the graph inside the block, or an error that says who else uses it.
        A server database (Neo4j) isolates writers with transactions: nothing to do."""
        yield

    def read(self, name: str, params: Mapping[str, Any] | None = None) -> list[Row]:
        return self._run(self.queries.get(name), dict(params or {}), write=False)

    def write(self, name: str, params: Mapping[str, Any] | None = None) -> list[Row]:
        return self._run(self.queries.get(name), dict(params or {}), write=True)

    def run_file_text(
        self, text: str, params: Mapping[str, Any] | None = None, *, write: bool = False
    ) -> list[Row]:
        """Run the reviewed text of a query file that lives outside the library (declared tools
        from another folder). Read transaction unless `write`; values only through `params`."""
        return self._run(text, dict(params or {}), write=write)

    def ensure_schema(self) -> None:
        """Create the constraints and indexes in `cypher/schema/` (idempotent)."""
        for name in self.queries.names("schema"):
            self._run_schema(name)

    def _run_schema(self, name: str) -> None:
        self.write(name)

    @abstractmethod
    def _run(self, text: str, params: dict[str, Any], *, write: bool) -> list[Row]:
        """Run one query text with parameters; return rows as dicts keyed by column."""

    @abstractmethod
    def describe(self) -> str:
        """One line naming the backend and where it is, without secrets."""

    @abstractmethod
    def close(self) -> None: ...

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
