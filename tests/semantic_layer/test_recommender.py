"""Recommender against collaborative filtering computed with plain Python from ratings.csv."""

from __future__ import annotations

from typing import Any

import pytest

from semantic_layer.session import Session
from semantic_layer.tools import build_tools
from tests.semantic_layer.collaborative import top_similar

FORREST_GUMP, HEAT = 356, 6


def _recommender(graph: Any, user_id: int) -> Any:
    return next(t for t in build_tools(graph, Session(user_id=user_id)) if t.name == "recommender")


@pytest.mark.parametrize("movie_id", [FORREST_GUMP, HEAT])
def test_by_movie_matches_co_likes_from_ratings_csv(
    tools_graph: Any, csv_ratings: Any, csv_co_likes: Any, movie_id: int
) -> None:
    guest = _recommender(tools_graph, 0)  # a guest has rated nothing: nothing is excluded
    title = {FORREST_GUMP: "Forrest Gump", HEAT: "Heat"}[movie_id]
    result = guest.invoke({"movie": title})
    assert result.ok and result.kind == "recommendations"
    expected = top_similar(csv_ratings, csv_co_likes, movie_id)[:10]
    recs = result.data["recommendations"]
    assert [r["movieId"] for r in recs] == [m for m, _ in expected]
    for rec, (_, support) in zip(recs, expected, strict=True):
        assert rec["why"].startswith(f"{support} viewers who liked {title}")
    assert movie_id not in [r["movieId"] for r in recs]


def test_by_movie_excludes_what_the_user_rated(
    tools_graph: Any, csv_ratings: Any, csv_co_likes: Any
) -> None:
    rated = csv_ratings.by_user[1]
    recs = _recommender(tools_graph, 1).invoke({"movie": "Forrest Gump"}).data["recommendations"]
    expected = [
        m for m, _ in top_similar(csv_ratings, csv_co_likes, FORREST_GUMP) if m not in rated
    ]
    assert [r["movieId"] for r in recs] == expected[:10]


def test_by_genre_is_well_rated_and_in_the_genre(tools_graph: Any, csv_ratings: Any) -> None:
    result = _recommender(tools_graph, 1).invoke({"genre": "film noir"})
    recs = result.data["recommendations"]
    assert recs and all("Film-Noir" in r["genres"] for r in recs)
    assert all(r["movieId"] not in csv_ratings.by_user[1] for r in recs)
    assert all(csv_ratings.count[r["movieId"]] >= 10 for r in recs)
    scores = [(r["ratingCount"] * r["ratingAvg"] + 35) / (r["ratingCount"] + 10) for r in recs]
    assert scores == sorted(scores, reverse=True)


def test_by_movie_and_genre_filters_the_neighbours(
    tools_graph: Any, csv_ratings: Any, csv_co_likes: Any
) -> None:
    recs = (
        _recommender(tools_graph, 0)
        .invoke({"movie": "Forrest Gump", "genre": "Comedy"})
        .data["recommendations"]
    )
    neighbours = {m for m, _ in top_similar(csv_ratings, csv_co_likes, FORREST_GUMP)}
    assert recs and all("Comedy" in r["genres"] and r["movieId"] in neighbours for r in recs)


def test_from_own_ratings_sums_support_and_excludes_rated(
    tools_graph: Any, csv_ratings: Any, csv_co_likes: Any
) -> None:
    user = 3  # few ratings, so every liked movie is a seed
    liked = [m for m, r in csv_ratings.by_user[user].items() if r >= 4.0]
    totals: dict[int, int] = {}
    for seed in liked:
        for other, support in top_similar(csv_ratings, csv_co_likes, seed):
            if other not in csv_ratings.by_user[user]:
                totals[other] = totals.get(other, 0) + support
    best = max(totals.values())
    recs = _recommender(tools_graph, user).invoke({}).data["recommendations"]
    assert recs[0]["movieId"] in {m for m, s in totals.items() if s == best}
    assert all(r["movieId"] not in csv_ratings.by_user[user] for r in recs)


def test_a_guest_without_ratings_is_told_what_to_do(tools_graph: Any) -> None:
    result = _recommender(tools_graph, 0).invoke({})
    assert result.data["recommendations"] == [] and "rate" in result.message


def test_unknown_genre_lists_the_valid_ones(tools_graph: Any) -> None:
    from pydantic import ValidationError

    with pytest.raises(ValidationError, match="Film-Noir"):
        _recommender(tools_graph, 0).invoke({"genre": "Bollywood"})


def test_recommending_only_reads(tools_graph: Any) -> None:
    result = _recommender(tools_graph, 1).invoke({"movie": "Heat"})
    assert result.queries and {q.mode for q in result.queries} == {"read"}
