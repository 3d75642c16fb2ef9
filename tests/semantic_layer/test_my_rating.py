"""my_rating reads the session user's rating of one movie and can store nothing."""

from __future__ import annotations

from typing import Any

import pytest

from semantic_layer.errors import ToolArgumentsError
from semantic_layer.graph_stats import graph_stats
from semantic_layer.session import Session
from semantic_layer.users import forget_rating
from tests.semantic_layer.bound import bound_tools


def test_it_says_the_users_rating_and_stores_nothing(writable: Any) -> None:
    tools = bound_tools(writable, Session(user_id=7))
    tools["memory"].invoke({"movie": "Heat", "rating": 3.5})
    before = graph_stats(writable)
    said = tools["my_rating"].invoke({"movie": "Heat"})
    assert said.ok and said.data.rating == 3.5 and said.data.movie_id == 6
    assert said.message == "You rated Heat (1995) 3.5/5."
    assert all(q.mode == "read" for q in said.queries)
    assert graph_stats(writable) == before
    assert forget_rating(writable, 7, 6)
    unrated = tools["my_rating"].invoke({"movie": "Heat"})
    assert unrated.ok and unrated.data.rating is None and "not rated" in unrated.message


def test_a_rating_in_the_arguments_is_refused_not_stored(writable: Any) -> None:
    before = graph_stats(writable)
    with pytest.raises(ToolArgumentsError, match="rating"):
        bound_tools(writable, Session(user_id=7))["my_rating"].invoke(
            {"movie": "Heat", "rating": 4}
        )
    assert graph_stats(writable) == before


def test_a_guest_asking_what_they_rated_gets_no_id(writable: Any) -> None:
    before = graph_stats(writable)
    result = bound_tools(writable, Session())["my_rating"].invoke({"movie": "Heat"})
    assert result.ok and result.data.rating is None and result.new_user_id is None
    assert graph_stats(writable) == before


def test_an_ambiguous_title_gets_candidates(tools_graph: Any) -> None:
    result = bound_tools(tools_graph, Session(user_id=1))["my_rating"].invoke({"movie": "Solaris"})
    assert not result.ok and result.kind == "candidates" and len(result.candidates) == 2


def test_it_is_a_read_only_tool(tools_graph: Any) -> None:
    tool = bound_tools(tools_graph, Session(user_id=1))["my_rating"]
    assert tool.tool.mode == "read" and set(tool.input_schema["properties"]) == {"movie"}
