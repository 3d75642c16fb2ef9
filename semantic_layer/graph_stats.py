"""Counts of what is in the graph, for `movieagent stats` and health checks."""

from __future__ import annotations

from typing import Any

from semantic_layer.graph import Graph


def graph_stats(graph: Graph) -> dict[str, Any]:
    nodes = {r["label"]: r["count"] for r in graph.read("admin/node_counts")}
    rels = {r["type"]: r["count"] for r in graph.read("admin/relationship_counts")}
    return {"nodes": nodes, "relationships": rels}
