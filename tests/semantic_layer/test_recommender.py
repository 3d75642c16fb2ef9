"""Recommender against collaborative filtering computed with plain Python from ratings.csv."""

from __future__ import annotations

from typing import Any

import pytest

from semantic_layer.session import Session
from tests.semantic_layer.bound import bound_tools

FORREST_GUMP, HEAT = 356, 6


def _recommender(graph: Any, user_id: int) -> Any:
    return bound_tools(graph, Session(user_id=user_id))["recommender"]


def _edges(graph: Any, movie_id: int) -> list[dict[str, Any]]:
    """The movie's SIMILAR edges as the import wrote them, in rank order."""
    return graph.read("test/similar_by_id", {"movieId": movie_id})


@pytest.mark.parametrize("movie_id", [FORREST_GUMP, HEAT])
def test_by_movie_follows_the_similar_scores_and_says_true_support(
    tools_graph: Any, csv_co_likes: Any, movie_id: int
) -> None:
    guest = _recommender(tools_graph, 0)  # a guest has rated nothing: nothing is excluded
    title = {FORREST_GUMP: "Forrest Gump (1994)", HEAT: "Heat (1995)"}[movie_id]
    result = guest.invoke({"movie": title.split(" (")[0]})
    assert result.ok and result.kind == "recommendations"
    expected = [e["movieId"] for e in _edges(tools_graph, movie_id)][:10]
    recs = result.data.recommendations
    assert [r.movie_id for r in recs] == expected
    for rec in recs:  # the count said is the plain-Python count of viewers who liked both
        support = csv_co_likes[movie_id][rec.movie_id]
        assert rec.why.endswith(f"({support} of them liked both)")
        assert title in rec.why
    assert movie_id not in expected


def test_by_movie_excludes_what_the_user_rated(tools_graph: Any, csv_ratings: Any) -> None:
    rated = csv_ratings.by_user[1]
    recs = _recommender(tools_graph, 1).invoke({"movie": "Forrest Gump"}).data.recommendations
    expected = [
        e["movieId"] for e in _edges(tools_graph, FORREST_GUMP) if e["movieId"] not in rated
    ]
    assert [r.movie_id for r in recs] == expected[:10]


def test_by_genre_is_well_rated_and_in_the_genre(tools_graph: Any, csv_ratings: Any) -> None:
    result = _recommender(tools_graph, 1).invoke({"genre": "film noir"})
    recs = result.data.recommendations
    assert recs and all("Film-Noir" in r.genres for r in recs)
    assert all(r.movie_id not in csv_ratings.by_user[1] for r in recs)
    assert all(csv_ratings.count[r.movie_id] >= 10 for r in recs)
    scores = [(r.rating_count * r.rating_avg + 35) / (r.rating_count + 10) for r in recs]
    assert scores == sorted(scores, reverse=True)


def test_by_movie_and_genre_filters_the_neighbours(tools_graph: Any) -> None:
    recs = (
        _recommender(tools_graph, 0)
        .invoke({"movie": "Forrest Gump", "genre": "Comedy"})
        .data.recommendations
    )
    neighbours = {e["movieId"] for e in _edges(tools_graph, FORREST_GUMP)}
    assert recs and all("Comedy" in r.genres and r.movie_id in neighbours for r in recs)


def test_from_own_ratings_sums_weighted_scores_and_says_which_likes(
    tools_graph: Any, csv_ratings: Any
) -> None:
    user = 3  # few ratings, so every liked movie is a seed
    rated = csv_ratings.by_user[user]
    parts: dict[int, dict[int, float]] = {}  # candidate -> seed -> what the seed adds
    for seed, rating in rated.items():
        if rating >= 4.0:
            for edge in _edges(tools_graph, seed):
                if edge["movieId"] not in rated:
                    parts.setdefault(edge["movieId"], {})[seed] = (rating - 3) * edge["score"]
    totals = {movie: sum(p.values()) for movie, p in parts.items()}
    best = sorted(totals, key=lambda m: -totals[m])[:10]
    recs = _recommender(tools_graph, user).invoke({}).data.recommendations
    assert [r.movie_id for r in recs] == best
    for rec in recs[:3]:
        strongest = max(parts[rec.movie_id].items(), key=lambda item: item[1])[0]
        [movie] = tools_graph.read("test/movie_by_id", {"movieId": strongest})
        assert rec.why.startswith(f"the user rated {movie['title']}")


def test_a_guest_without_ratings_is_told_what_to_do(tools_graph: Any) -> None:
    result = _recommender(tools_graph, 0).invoke({})
    assert result.data.recommendations == [] and "rate" in result.message


def test_unknown_genre_lists_the_valid_ones(tools_graph: Any) -> None:
    from semantic_layer.errors import ToolArgumentsError

    with pytest.raises(ToolArgumentsError, match="Film-Noir"):
        _recommender(tools_graph, 0).invoke({"genre": "Bollywood"})


def test_recommending_only_reads(tools_graph: Any) -> None:
    result = _recommender(tools_graph, 1).invoke({"movie": "Heat"})
    assert result.queries and {q.mode for q in result.queries} == {"read"}
