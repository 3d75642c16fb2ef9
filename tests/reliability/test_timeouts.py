"""A query that runs too long is stopped and becomes a sentence, on both backends
(issue 11, finding 10)."""

from __future__ import annotations

import time
from typing import Any

import pytest

from semantic_layer.errors import ConfigurationError, GraphTimeoutError
from semantic_layer.graph import connect
from semantic_layer.settings import DEFAULT_QUERY_TIMEOUT_MS, GraphSettings


def test_the_time_limit_is_a_setting() -> None:
    assert GraphSettings.from_env({}).query_timeout_ms == DEFAULT_QUERY_TIMEOUT_MS
    env = {"MOVIEAGENT_QUERY_TIMEOUT_MS": "1500"}
    assert GraphSettings.from_env(env).query_timeout_ms == 1500
    for bad in ("0", "-5", "1.5s", "١٢"):
        with pytest.raises(ConfigurationError, match="MOVIEAGENT_QUERY_TIMEOUT_MS"):
            GraphSettings.from_env({"MOVIEAGENT_QUERY_TIMEOUT_MS": bad})


def test_a_slow_query_on_falkordb_is_stopped_with_a_sentence(settings: GraphSettings) -> None:
    with connect(settings.model_copy(update={"query_timeout_ms": 100})) as graph:
        graph.write("test/create_node")  # a graph to query
        small = sum(1 for a in range(1, 31) for b in range(1, 31) if a * b % 7 == 3)
        assert graph.read("test/slow_count", {"n": 30})[0]["matches"] == small
        started = time.monotonic()
        with pytest.raises(GraphTimeoutError, match=r"longer than 0\.1 s.*QUERY_TIMEOUT_MS"):
            graph.read("test/slow_count", {"n": 1_000_000})  # 10^12 rows: hours
        assert time.monotonic() - started < 30
        with graph.unbounded():  # the import's writes run without the limit
            assert graph.timeout_ms is None
        assert graph.timeout_ms == 100


def test_neo4j_queries_carry_the_limit_and_a_timeout_is_a_sentence(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    neo4j = pytest.importorskip("neo4j")
    from semantic_layer.graph.neo4j_graph import Neo4jGraph

    sent: list[Any] = []

    class Driver:
        def verify_connectivity(self) -> None:
            pass

        def execute_query(self, query: Any, **kwargs: Any) -> Any:
            sent.append(query)
            if "slow" in query.text:
                raise neo4j.exceptions.ClientError._hydrate_neo4j(
                    code="Neo.ClientError.Transaction.TransactionTimedOutClientConfiguration",
                    message="The transaction has been terminated.",
                )
            return [], None, None

        def close(self) -> None:
            pass

    monkeypatch.setattr(neo4j.GraphDatabase, "driver", lambda *a, **k: Driver())
    settings = GraphSettings.from_env(
        {"NEO4J_URI": "bolt://127.0.0.1:1", "NEO4J_PASSWORD": "x",
         "MOVIEAGENT_QUERY_TIMEOUT_MS": "2500"}
    )  # fmt: skip
    graph = Neo4jGraph(settings)
    graph.run_file_text("RETURN 1")
    assert sent[-1].timeout == 2.5
    with pytest.raises(GraphTimeoutError, match=r"longer than 2\.5 s"):
        graph.run_file_text("RETURN 'slow'")
