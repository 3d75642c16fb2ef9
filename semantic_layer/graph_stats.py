"""Counts of what is in the graph, for `movieagent stats` and health checks."""

from __future__ import annotations

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


def graph_problem(graph: Graph) -> str | None:
    """Why questions cannot be answered from `graph` (one sentence), or None when it has movies."""
    try:
        movies = int(graph_stats(graph)["nodes"].get("Movie", 0))
    except SemanticLayerError as e:  # unreachable or broken: the error says what to do
        return str(e)
    return None if movies else IMPORT_HINT.format(graph=graph.describe())
