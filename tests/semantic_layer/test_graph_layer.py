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
    graph.close()


def test_reading_a_graph_that_does_not_exist_yet_finds_nothing(absent_graph: Any) -> None:
    assert absent_graph.read("admin/node_counts") == []
    problem = graph_problem(absent_graph)
    assert problem is not None and "movieagent import" in problem


def test_a_loaded_graph_has_no_problem(movie_graph: Any) -> None:
    assert graph_problem(movie_graph) is None


def test_a_write_inside_a_read_transaction_is_refused(movie_graph: Any) -> None:
    with pytest.raises(GraphQueryError):
        movie_graph.read("test/create_node")


def test_redis_forks_no_snapshot_of_its_own_while_a_graph_is_copied(movie_graph: Any) -> None:
    """A snapshot forked beside `GRAPH.COPY`'s fork left the copy waiting for ever."""
    from semantic_layer.graph.embedded_server import AOF_REWRITE_PERCENTAGE, DEFAULT_SNAPSHOTS

    client = movie_graph.client
    seen: list[dict[str, str]] = []
    real = client.execute_command

    def watching(*args: Any, **kwargs: Any) -> Any:
        if args and args[0] == "GRAPH.COPY":
            seen.append(client.config_get("*"))
        return real(*args, **kwargs)

    client.execute_command = watching
    try:
        with movie_graph.scratch_copy("paused") as copy:
            assert copy is not None and copy.read("admin/node_counts")
    finally:
        del client.execute_command
    assert seen  # one attempt, or more when a fork of the copy before was still running
    for during in seen:
        assert during["save"] == "" and during["auto-aof-rewrite-percentage"] == "0"
    after = client.config_get("*")
    assert after["save"] == DEFAULT_SNAPSHOTS
    assert after["auto-aof-rewrite-percentage"] == str(AOF_REWRITE_PERCENTAGE)


def test_redis_forks_nothing_of_its_own_while_an_import_writes(writable_graph: Any) -> None:
    """A fork beside busy writer threads is where a child can inherit a lock held for ever."""
    from semantic_layer.graph.embedded_server import AOF_REWRITE_PERCENTAGE, DEFAULT_SNAPSHOTS

    client = writable_graph.client
    rewrites = client.info("persistence")["aof_rewrites"]
    with writable_graph.bulk_writes():
        during = client.config_get("*")
    assert during["save"] == "" and during["auto-aof-rewrite-percentage"] == "0"
    after = client.config_get("*")
    assert after["save"] == DEFAULT_SNAPSHOTS
    assert after["auto-aof-rewrite-percentage"] == str(AOF_REWRITE_PERCENTAGE)
    assert client.info("persistence")["aof_rewrites"] > rewrites  # compacted at the end
