"""Fixtures for the tool tests: the real graph with the Recommender's derived data, and tools."""

from __future__ import annotations

from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import pytest

from semantic_layer.session import Session
from tests.semantic_layer.bound import bound_tools
from tests.semantic_layer.collaborative import (
    LIKE,
    Ratings,
    co_likes,
    read_ratings,
    top_similar,
)


@pytest.fixture(scope="session")
def tools_graph(movie_graph: Any) -> Any:
    """`movie_graph` with Movie.ratingCount/ratingAvg/likeCount and SIMILAR edges.

    The import writes them as its last phases; if this import does not (yet), they are
    derived here from the graph's own RATED edges by the same definition.
    """
    if movie_graph.read("test/similar_count")[0]["count"] == 0:
        _derive(movie_graph)
    return movie_graph


def _derive(graph: Any) -> None:
    by_user: dict[int, dict[int, float]] = defaultdict(dict)
    for row in graph.read("test/all_ratings"):
        by_user[row["userId"]][row["movieId"]] = row["rating"]
    count: Counter[int] = Counter()
    sums: dict[int, float] = defaultdict(float)
    likes: Counter[int] = Counter()
    for movies in by_user.values():
        for movie, rating in movies.items():
            count[movie] += 1
            sums[movie] += rating
            likes[movie] += rating >= LIKE
    ratings = Ratings(dict(by_user), count, {m: sums[m] / count[m] for m in count}, likes)
    stats = [
        {"movieId": m, "ratingCount": count[m], "ratingAvg": ratings.average[m],
         "likeCount": likes[m]}
        for m in count
    ]  # fmt: skip
    graph.write("test/write_movie_stats", {"rows": stats})
    pairs = co_likes(ratings)
    edges = [
        {"a": movie, "b": other, "support": support, "rank": rank}
        for movie in pairs
        for rank, (other, support) in enumerate(top_similar(ratings, pairs, movie), 1)
    ]
    for start in range(0, len(edges), 20_000):
        graph.write("test/write_similar", {"rows": edges[start : start + 20_000]})


@pytest.fixture(scope="session")
def csv_ratings(ml_small: Path) -> Ratings:
    return read_ratings(ml_small)


@pytest.fixture(scope="session")
def csv_co_likes(csv_ratings: Ratings) -> dict[int, Counter[int]]:
    return co_likes(csv_ratings)


@pytest.fixture
def tools(tools_graph: Any) -> dict[str, Any]:
    """The tools over the shared graph for an existing MovieLens user (1), read-only use."""
    return bound_tools(tools_graph, Session(user_id=1))


@pytest.fixture
def writable(tools_graph: Any, writable_graph: Any) -> Any:
    """A private copy of the graph, derived data included, that a test may change."""
    return writable_graph
