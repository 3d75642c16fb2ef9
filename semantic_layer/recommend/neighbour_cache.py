"""The in-memory neighbourhoods of each graph, loaded once per import, in the background.

Loading reads every SIMILAR edge (seconds on ml-latest-small, minutes at 25M ratings), so a
request never waits for it: an application asks for it at its start (`warm_in_background`),
a benchmark loads and waits (`warm`), and until a load is done requests are served by the
queries alone (`by_taste.cypher`). A graph nobody warmed (a test's) always is. The copy is
keyed by the graph (its description) and checked against the edge count of
`recommend/neighbour_stamp` on every request: after an import, in this process or another,
the next request starts a new load in the background and is served by the queries.
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass

from semantic_layer.errors import SemanticLayerError
from semantic_layer.graph import Graph
from semantic_layer.recommend.neighbours import Neighbours, load_neighbours

log = logging.getLogger(__name__)
RETRY_S = 60.0  # a failed load is tried again by a request this long after


@dataclass
class _Entry:
    stamp: int
    neighbours: Neighbours | None = None
    loading: threading.Thread | None = None
    failed: float | None = None  # when the last load failed (monotonic seconds)


class NeighbourCache:
    """Per graph: the `Neighbours` of its current import, once loaded."""

    def __init__(self) -> None:
        self._entries: dict[str, _Entry] = {}
        self._guard = threading.Lock()

    def get(self, graph: Graph) -> Neighbours | None:
        """The graph's neighbourhoods if they were warmed and are loaded for its current
        import; else None (after an import, a new load starts in the background)."""
        with self._guard:
            if graph.describe() not in self._entries:
                return None
        return self._current(graph)

    def warm_in_background(self, graph: Graph) -> None:
        """Start loading the graph's neighbourhoods in a daemon thread (a graph that cannot
        be read now is left to the queries: logged, never raised)."""
        try:
            self._current(graph)
        except SemanticLayerError as e:
            log.warning("the neighbourhoods of %s stay in the graph: %s", graph.describe(), e)

    def warm(self, graph: Graph) -> Neighbours | None:
        """Load the graph's neighbourhoods now (waiting for a load under way); None for a
        graph without SIMILAR edges or when the load failed (logged)."""
        self._current(graph)
        with self._guard:
            entry = self._entries.get(graph.describe())
            thread = entry.loading if entry else None
        if thread is not None:
            thread.join()
        with self._guard:
            entry = self._entries.get(graph.describe())
            return entry.neighbours if entry else None

    def _current(self, graph: Graph) -> Neighbours | None:
        stamp = _stamp(graph)
        with self._guard:
            entry = self._entries.get(graph.describe())
            if entry is None or entry.stamp != stamp:
                entry = self._entries[graph.describe()] = _Entry(stamp)
            retry = entry.failed is None or time.monotonic() - entry.failed > RETRY_S
            if stamp and entry.neighbours is None and entry.loading is None and retry:
                self._start(graph, entry)
            return entry.neighbours

    def _start(self, graph: Graph, entry: _Entry) -> None:
        thread = threading.Thread(
            target=self._load, args=(graph, entry), name="neighbours-load", daemon=True
        )
        entry.loading = thread
        thread.start()

    def _load(self, graph: Graph, entry: _Entry) -> None:
        started = time.perf_counter()
        try:
            neighbours = load_neighbours(graph)
        except Exception:  # the queries serve; the next request starts a load again
            log.warning("loading the neighbourhoods of %s failed", graph.describe(), exc_info=True)
            neighbours = None
        with self._guard:
            entry.neighbours, entry.loading = neighbours, None
            entry.failed = None if neighbours is not None else time.monotonic()
        if neighbours is not None:
            log.info("neighbourhoods of %s in memory: %d movies, %d edges, %.1f s",
                     graph.describe(), len(neighbours.movie_ids), neighbours.edges,
                     time.perf_counter() - started)  # fmt: skip


def _stamp(graph: Graph) -> int:
    """The SIMILAR edge count (0: nothing worth a copy)."""
    rows = graph.read("recommend/neighbour_stamp")
    return int(rows[0]["edges"]) if rows else 0


SHARED = NeighbourCache()  # one per process: every Recommender (and graph) shares it
