"""The graph interface itself, on the embedded FalkorDB."""

from __future__ import annotations

from typing import Any

import pytest

from semantic_layer.errors import GraphQueryError
from semantic_layer.graph.falkordb_graph import FalkorGraph
from semantic_layer.graph_stats import graph_problem


@pytest.fixture
def absent_graph(movie_graph: Any, graph_settings: Any) -> Any:
    """A handle on a graph name that was never created, in the running embedded database."""
    graph = FalkorGraph(graph_settings.model_copy(update={"graph_name": "never_imported"}))
    yield graph
    graph.delete_graph()


def test_reading_a_graph_that_does_not_exist_yet_finds_nothing(absent_graph: Any) -> None:
    assert absent_graph.read("admin/node_counts") == []
    problem = graph_problem(absent_graph)
    assert problem is not None and "movieagent import" in problem


def test_a_loaded_graph_has_no_problem(movie_graph: Any) -> None:
    assert graph_problem(movie_graph) is None


def test_a_write_inside_a_read_transaction_is_refused(movie_graph: Any) -> None:
    with pytest.raises(GraphQueryError):
        movie_graph.read("test/create_node")
