"""Hostile input changes nothing; read tools run in read transactions."""

from __future__ import annotations

from typing import Any

import pytest

from semantic_layer.errors import GraphQueryError
from semantic_layer.graph_stats import graph_stats

HOSTILE = [
    "Matrix'}) MATCH (n) DETACH DELETE n //",
    '"}) CREATE (:Intruder) //',
    "Heat\x00; DROP GRAPH movies",
    "x' OR 1=1 --",
    "title:(matrix) AND year:[1990 TO 2000]",
    "%matrix%|@title:*|-heat",
    "*",
    "\\\\\"'`~!@#$%^&*()",
    "a" * 10_000,
    "",
]


@pytest.mark.parametrize("text", HOSTILE)
def test_hostile_input_to_every_tool_leaves_every_count_unchanged(writable: Any, text: str) -> None:
    from semantic_layer.session import Session
    from tests.semantic_layer.bound import bound_tools

    before = graph_stats(writable)
    tools = bound_tools(writable, Session(user_id=1))
    calls = [
        ("film_facts", {"entity": text}),
        ("film_facts", {"entity": text, "entity_type": "person"}),
        ("recommender", {"movies": [text]}),
        ("memory", {"movie": text, "rating": 3}),
        ("smalltalk", {"query": text}),
        ("top_movies_by_director", {"director": text or "x"}),
        ("most_tagged", {"tag": text or "x"}),
    ]
    for name, args in calls:
        result = tools[name].invoke(args)
        if name == "memory":
            assert not result.ok  # nothing resolvable: nothing stored
        if not result.ok:
            assert result.message
    assert graph_stats(writable) == before


def test_a_write_through_the_read_path_fails(tools_graph: Any) -> None:
    before = graph_stats(tools_graph)
    with pytest.raises(GraphQueryError):
        tools_graph.read("test/create_node")
    assert graph_stats(tools_graph) == before
