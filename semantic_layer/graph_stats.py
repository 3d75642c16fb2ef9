"""Counts of what is in the graph, for `movieagent stats` and health checks."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from semantic_layer.errors import SemanticLayerError
from semantic_layer.graph import Graph

IMPORT_HINT = (
    "{graph} holds no movies yet: run `movieagent import` to load MovieLens, then try again."
)


def graph_stats(graph: Graph) -> dict[str, Any]:
    nodes = {r["label"]: r["count"] for r in graph.read("admin/node_counts")}
    rels = {r["type"]: r["count"] for r in graph.read("admin/relationship_counts")}
    return {"nodes": nodes, "relationships": rels}


@dataclass(frozen=True)
class GraphHealth:
    """Is the graph reachable and loaded; `detail` says what to do when it is not."""

    reachable: bool
    movies: int = 0
    users: int = 0
    ratings: int = 0
    detail: str = ""

    @property
    def loaded(self) -> bool:
        return self.reachable and self.movies > 0


def graph_health(graph: Graph) -> GraphHealth:
    """The one health check of the graph (the CLI, the MCP server and the UI ask it)."""
    try:
        stats = graph_stats(graph)
    except SemanticLayerError as e:  # unreachable or broken: the error says what to do
        return GraphHealth(reachable=False, detail=str(e))
    nodes, rels = stats["nodes"], stats["relationships"]
    health = GraphHealth(
        reachable=True,
        movies=int(nodes.get("Movie", 0)),
        users=int(nodes.get("User", 0)),
        ratings=int(rels.get("RATED", 0)),
    )
    if health.loaded:
        return health
    return GraphHealth(reachable=True, detail=IMPORT_HINT.format(graph=graph.describe()))


def graph_problem(graph: Graph) -> str | None:
    """Why questions cannot be answered from `graph` (one sentence), or None when it has movies.

    Only the movies are counted (a count both backends keep per label), not every relationship:
    the check runs before each command and costs milliseconds, not a scan of a million edges."""
    try:
        rows = graph.read("admin/movie_count")
    except SemanticLayerError as e:  # unreachable or broken: the error says what to do
        return str(e)
    if rows and int(rows[0]["count"]) > 0:
        return None
    return IMPORT_HINT.format(graph=graph.describe())
