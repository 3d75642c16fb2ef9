"""The graph interface every backend implements: run a named query, read or write, get dicts."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from types import TracebackType
from typing import TYPE_CHECKING, Any, Protocol, Self

from semantic_layer.errors import BulkLoadError
from semantic_layer.graph.queries import QueryLibrary
from semantic_layer.settings import GraphSettings

if TYPE_CHECKING:
    import numpy as np

Row = dict[str, Any]


class BulkLoader(Protocol):
    """Builds a new graph from whole columns and rows of nodes and edges (`Graph.bulk_build`).
    Node ids are returned in creation order, for the edges that point at them; `created`
    counts what the database made, per label or relationship type."""

    nodes_created: int
    edges_created: int
    created: Counter[str]

    def nodes(
        self, label: str, properties: Sequence[str], rows: Iterable[Sequence[Any]]
    ) -> range: ...

    def node_columns(self, label: str, columns: dict[str, np.ndarray]) -> range: ...

    def edges(
        self,
        rel_type: str,
        properties: Sequence[str],
        rows: Iterable[tuple[int, int, Sequence[Any]]],
    ) -> None: ...

    def edge_columns(
        self,
        rel_type: str,
        source: np.ndarray,
        target: np.ndarray,
        columns: dict[str, np.ndarray] | None = None,
    ) -> None: ...


class Graph(ABC):
    """A graph database reached through named, parameterized queries only.

    `read` runs in a read transaction (read routing on Neo4j, `GRAPH.RO_QUERY` on
    FalkorDB): a read query that tries to write fails instead of changing the graph.
    """

    backend: str
    settings: GraphSettings
    # Whether `bulk_build` can build a new graph in bulk (the import's fast path); otherwise
    # the import writes with batched MERGE.
    bulk_loads: bool = False
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

    def wait_for_indexes(
        self, timeout_s: float, on_progress: Callable[[int, int], None] | None = None
    ) -> list[str]:
        """Wait until every index is usable (databases build them in the background); returns
        the indexes still building after `timeout_s`, empty when all are ready."""
        return []

    @contextmanager
    def bulk_writes(self) -> Iterator[None]:
        """Many writes in a row (an import): a backend that takes snapshots of its data pauses
        them inside the block and saves once at its end."""
        yield

    @contextmanager
    def scratch_copy(self, prefix: str) -> Iterator[Graph | None]:
        """A private copy of this graph, named `prefix_<random>`, dropped at the end of the
        block; None when the backend cannot copy a graph cheaply."""
        yield None

    def bulk_build(
        self, suffix: str, on_sent: Callable[[int], None] | None = None
    ) -> tuple[Graph, BulkLoader]:
        """A new, empty graph beside this one (this graph's name + `suffix`, anything left
        under that name is dropped) and the loader that fills it; `replace_with` swaps it in.
        Only where `bulk_loads` is true."""
        raise BulkLoadError(f"{self.describe()} cannot be built in bulk: import with MERGE.")

    def replace_with(self, staging: Graph) -> None:
        """Put the graph `bulk_build` made in this graph's place, in one step."""
        raise BulkLoadError(f"{self.describe()} cannot swap in a graph built in bulk.")

    def fulltext_query(self, words: list[str], *, any_word: bool, fuzzy: bool = True) -> str:
        """The full-text index query matching all `words` (or any, with `any_word`), each
        fuzzy where it is long enough to be misspelt (unless not `fuzzy`). Words are letters
        and digits only."""
        raise NotImplementedError(f"{type(self).__name__} has no full-text index syntax")

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
