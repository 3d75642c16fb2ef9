"""The graph connection: one small interface, a Neo4j and an embedded FalkorDB implementation."""

from semantic_layer.graph.base import Graph, Row
from semantic_layer.graph.connect import connect
from semantic_layer.graph.queries import QueryLibrary

__all__ = ["Graph", "QueryLibrary", "Row", "connect"]
