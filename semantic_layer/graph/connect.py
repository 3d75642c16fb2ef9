"""Pick the graph backend from the settings: Neo4j when `NEO4J_URI` is set, else embedded."""

from __future__ import annotations

from semantic_layer.graph.base import Graph
from semantic_layer.settings import GraphSettings


def connect(settings: GraphSettings | None = None) -> Graph:
    settings = settings or GraphSettings.from_env()
    if settings.backend == "neo4j":
        from semantic_layer.graph.neo4j_graph import Neo4jGraph

        return Neo4jGraph(settings)
    from semantic_layer.graph.falkordb_graph import FalkorGraph

    return FalkorGraph(settings)
