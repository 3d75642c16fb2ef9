"""Memory writes only the session user's rating of exactly one movie."""

from __future__ import annotations

from typing import Any

import pytest

from semantic_layer.errors import ToolArgumentsError
from semantic_layer.graph_stats import graph_stats
from semantic_layer.session import Session
from semantic_layer.users import FIRST_GUEST_USER_ID, forget_rating, user_ratings
from tests.semantic_layer.bound import bound_tools


def _memory(graph: Any, session: Session) -> Any:
    return bound_tools(graph, session)["memory"]


def _per_user(graph: Any) -> dict[int, tuple[int, float]]:
    return {r["userId"]: (r["ratings"], r["total"]) for r in graph.read("test/user_ratings_count")}


def test_a_rating_changes_only_the_session_user(writable: Any) -> None:
    before = _per_user(writable)
    stats = graph_stats(writable)
    assert all(r["movieId"] != 2571 for r in user_ratings(writable, 5))
    result = _memory(writable, Session(user_id=5)).invoke({"movie": "matrix", "rating": 1.5})
    assert result.ok and result.data.movie_id == 2571 and result.data.user_id == 5
    after = _per_user(writable)
    assert {u for u in after if after[u] != before.get(u)} == {5}
    assert after[5][0] == before[5][0] + 1
    assert graph_stats(writable)["relationships"]["RATED"] == stats["relationships"]["RATED"] + 1


def test_toy_story_rates_toy_story_only(writable: Any) -> None:
    session = Session()
    result = _memory(writable, session).invoke({"movie": "Toy Story", "rating": 5})
    assert result.new_user_id is not None and session.is_guest  # reported, not bound
    assert [r["movieId"] for r in user_ratings(writable, result.new_user_id)] == [1]


def test_a_guest_gets_a_fresh_id_that_no_movielens_user_has(writable: Any) -> None:
    first = _memory(writable, Session()).invoke({"movie": "Heat", "rating": 3}).new_user_id
    second = _memory(writable, Session()).invoke({"movie": "Heat", "rating": 2}).new_user_id
    assert first == FIRST_GUEST_USER_ID and second == FIRST_GUEST_USER_ID + 1
    assert user_ratings(writable, first)[0]["rating"] == 3
    assert user_ratings(writable, second)[0]["rating"] == 2


def test_ambiguous_title_stores_nothing(writable: Any) -> None:
    """Casino Royale (2006) is rated 16 times as often as the 1967 film, which a read takes
    for what the title means; a write still asks."""
    before = graph_stats(writable)
    session = Session()
    result = _memory(writable, session).invoke({"movie": "Casino Royale", "rating": 5})
    assert not result.ok and result.kind == "candidates" and len(result.candidates) == 2
    assert graph_stats(writable) == before and result.new_user_id is None


def test_rating_again_replaces_and_forget_removes(writable: Any) -> None:
    memory = _memory(writable, Session(user_id=7))
    memory.invoke({"movie": "Heat", "rating": 2})
    result = memory.invoke({"movie": "Heat", "rating": 4.5})
    assert result.data.previous == 2
    assert [r["rating"] for r in user_ratings(writable, 7) if r["movieId"] == 6] == [4.5]
    assert forget_rating(writable, 7, 6)
    assert all(r["movieId"] != 6 for r in user_ratings(writable, 7))


@pytest.mark.parametrize("rating", [0, 5.5, -1, "great"])
def test_ratings_outside_1_to_5_are_refused(tools_graph: Any, rating: Any) -> None:
    with pytest.raises(ToolArgumentsError):
        _memory(tools_graph, Session(user_id=1)).invoke({"movie": "Heat", "rating": rating})


def test_the_user_cannot_come_from_the_arguments(tools_graph: Any) -> None:
    schema = _memory(tools_graph, Session(user_id=1)).input_schema
    assert set(schema["properties"]) == {"movie", "rating"}


def _stats(graph: Any, movie_id: int) -> dict[str, Any]:
    [row] = graph.read("test/movie_stats_by_id", {"movieId": movie_id})
    return row


def test_a_rating_updates_the_movies_statistics_at_once(writable: Any) -> None:
    heat = 6
    before = _stats(writable, heat)
    count, total = before["ratingCount"], before["ratingAvg"] * before["ratingCount"]
    memory = _memory(writable, Session(user_id=7))  # user 7 has not rated Heat
    memory.invoke({"movie": "Heat", "rating": 5})
    assert _stats(writable, heat) == {
        "ratingCount": count + 1,
        "ratingAvg": pytest.approx((total + 5) / (count + 1)),
        "likeCount": before["likeCount"] + 1,
    }
    memory.invoke({"movie": "Heat", "rating": 2})  # re-rating: same count, no longer a like
    assert _stats(writable, heat) == {
        "ratingCount": count + 1,
        "ratingAvg": pytest.approx((total + 2) / (count + 1)),
        "likeCount": before["likeCount"],
    }
    assert forget_rating(writable, 7, heat)
    assert _stats(writable, heat) == {**before, "ratingAvg": pytest.approx(before["ratingAvg"])}


def test_the_first_and_last_rating_of_a_movie(writable: Any) -> None:
    unrated = 34482  # no rating in ml-latest-small
    memory = _memory(writable, Session(user_id=7))
    memory.invoke({"movie": "The Browning Version (1951)", "rating": 4.5})
    assert _stats(writable, unrated) == {"ratingCount": 1, "ratingAvg": 4.5, "likeCount": 1}
    assert forget_rating(writable, 7, unrated)
    assert _stats(writable, unrated) == {"ratingCount": 0, "ratingAvg": None, "likeCount": 0}


def test_without_a_rating_nothing_is_stored(writable: Any) -> None:
    before = graph_stats(writable)
    with pytest.raises(ToolArgumentsError, match="rating"):
        _memory(writable, Session(user_id=7)).invoke({"movie": "Heat"})
    assert graph_stats(writable) == before
