"""A graph wrapper that records every query a tool runs, for the `ToolResult` trace."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import Any

from semantic_layer.errors import GraphUnavailableError
from semantic_layer.graph import Graph, Row
from semantic_layer.tools.result import QueryTrace


class TracedGraph:
    """Runs named queries on `graph` (reads in a read transaction) and keeps a `QueryTrace` each."""

    def __init__(self, graph: Graph | None, before_write: Callable[[], None] | None = None) -> None:
        self._graph = graph
        self.queries: list[QueryTrace] = []
        self._before_write = before_write  # raises to refuse (a read-only session)

    @property
    def graph(self) -> Graph:
        if self._graph is None:
            raise GraphUnavailableError("This call has no graph to query; connect one first.")
        return self._graph

    def fulltext_query(self, words: list[str], *, any_word: bool, fuzzy: bool = True) -> str:
        return self.graph.fulltext_query(words, any_word=any_word, fuzzy=fuzzy)

    def read(self, name: str, params: Mapping[str, Any] | None = None) -> list[Row]:
        values = dict(params or {})
        return self._timed(name, self.graph.queries.get(name), values, False, self.graph.read)

    def write(self, name: str, params: Mapping[str, Any] | None = None) -> list[Row]:
        values = dict(params or {})
        return self._timed(name, self.graph.queries.get(name), values, True, self.graph.write)

    def run_file_text(
        self, name: str, text: str, params: Mapping[str, Any] | None = None, *, write: bool
    ) -> list[Row]:
        """A declared tool's query, read-only unless its header says `mode: write`."""

        def run(_: str, values: Mapping[str, Any]) -> list[Row]:
            return self.graph.run_file_text(text, values, write=write)

        return self._timed(name, text, dict(params or {}), write, run)

    def _timed(
        self,
        name: str,
        text: str,
        params: dict[str, Any],
        write: bool,
        run: Callable[[str, Mapping[str, Any]], list[Row]],
    ) -> list[Row]:
        if write and self._before_write is not None:
            self._before_write()
        start = time.perf_counter()
        rows = run(name, params)
        ms = (time.perf_counter() - start) * 1000
        self.queries.append(
            QueryTrace(
                name=name,
                cypher=text,
                params=params,
                rows=len(rows),
                ms=round(ms, 3),
                mode="write" if write else "read",
            )
        )
        return rows
