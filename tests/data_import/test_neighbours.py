"""Derived data (rating statistics, SIMILAR) against a plain-Python count from ratings.csv."""

from __future__ import annotations

import csv
from collections import defaultdict
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from data_import.importer import ImportOptions, import_release
from data_import.neighbours import derive
from data_import.rating_arrays import RatingArrays
from semantic_layer.graph_stats import graph_stats

TOY_STORY, MATRIX, HEAT, RARE = 1, 2571, 6, 3
QUIET = ImportOptions(show_progress=False)


@cache
def _independent(ratings_csv: Path) -> dict[str, Any]:
    """Counts, means, likers per movie, straight from the file."""
    count: dict[int, int] = defaultdict(int)
    total: dict[int, float] = defaultdict(float)
    likers: dict[int, set[int]] = defaultdict(set)
    with ratings_csv.open(newline="", encoding="utf-8") as handle:
        for row in csv.DictReader(handle):
            movie, rating = int(row["movieId"]), float(row["rating"])
            count[movie] += 1
            total[movie] += rating
            if rating >= 4.0:
                likers[movie].add(int(row["userId"]))
    avg = {m: total[m] / count[m] for m in count}
    return {"count": count, "avg": avg, "likers": likers}


def expected_similar(ratings_csv: Path, movie: int) -> list[dict[str, int]]:
    data = _independent(ratings_csv)
    mine = data["likers"][movie]
    support = {o: len(mine & users) for o, users in data["likers"].items() if o != movie}
    ranked = sorted(
        ((o, s) for o, s in support.items() if s >= 1),
        key=lambda pair: (-pair[1], -data["avg"][pair[0]], pair[0]),
    )[:50]
    return [{"movieId": o, "support": s, "rank": i} for i, (o, s) in enumerate(ranked, 1)]


@pytest.mark.parametrize("movie", [TOY_STORY, MATRIX, HEAT, RARE])
def test_similar_edges_match_an_independent_count(
    movie_graph: Any, ml_small: Path, movie: int
) -> None:
    expected = expected_similar(ml_small / "ratings.csv", movie)
    assert movie_graph.read("test/similar_by_id", {"movieId": movie}) == expected
    assert len(expected) == 50 or movie == RARE


@pytest.mark.parametrize("movie", [TOY_STORY, MATRIX, RARE])
def test_rating_statistics_match_the_file(movie_graph: Any, ml_small: Path, movie: int) -> None:
    data = _independent(ml_small / "ratings.csv")
    [row] = movie_graph.read("test/movie_stats_by_id", {"movieId": movie})
    assert row["ratingCount"] == data["count"][movie]
    assert row["ratingAvg"] == pytest.approx(data["avg"][movie], abs=1e-12)
    assert row["likeCount"] == len(data["likers"][movie])


def test_movie_without_ratings_has_zero_counts_and_no_average(movie_graph: Any) -> None:
    [row] = movie_graph.read("test/movie_stats_by_id", {"movieId": 34482})  # never rated
    assert row == {"ratingCount": 0, "ratingAvg": None, "likeCount": 0}


def test_reimport_rewrites_the_same_similar_edges(
    writable_graph: Any, ml_small: Path, enriched_csv: Path
) -> None:
    before = writable_graph.read("test/similar_by_id", {"movieId": MATRIX})
    total = graph_stats(writable_graph)["relationships"]["SIMILAR"]
    report = import_release(writable_graph, ml_small, enriched_csv, QUIET)  # the MERGE path
    assert report.phases[0].name == "schema"
    assert writable_graph.read("test/similar_by_id", {"movieId": MATRIX}) == before
    assert graph_stats(writable_graph)["relationships"]["SIMILAR"] == total
    assert report.derived["exact"] and report.derived["similar_edges"] == total


def _ratings(rows: list[tuple[int, int, float, int]]) -> RatingArrays:
    user, movie, rating, timestamp = (np.array(c) for c in zip(*rows, strict=True))
    return RatingArrays(user, movie, rating.astype(float), timestamp, np.arange(len(rows)) + 2)


def test_ties_break_by_average_then_movie_id() -> None:
    # users 1 and 2 like movie 10; movies 20, 30, 40 are each liked by one of them.
    ratings = _ratings([
        (1, 10, 5.0, 1), (2, 10, 4.0, 1),
        (1, 20, 4.0, 1), (2, 30, 4.0, 1), (1, 40, 5.0, 1), (3, 30, 1.0, 1),
    ])  # fmt: skip
    derived = derive(ratings, np.array([10, 20, 30, 40, 50]))
    from_10 = derived.similar.source == 10
    # 40 (avg 5.0) before 20 (avg 4.0) before 30 (avg 2.5); never 10 itself or 50 (no likes)
    assert derived.similar.target[from_10].tolist() == [40, 20, 30]
    assert derived.similar.rank[from_10].tolist() == [1, 2, 3]
    assert derived.stats.rating_count.tolist() == [2, 1, 2, 1, 0]


def test_like_bound_keeps_each_users_most_recent_likes_and_says_so() -> None:
    # user 1 likes 10 (oldest), 20, 30 (newest); with a bound of 2 the like of 10 is left out.
    ratings = _ratings([(1, 10, 4.0, 100), (1, 20, 4.0, 200), (1, 30, 4.0, 300), (2, 10, 4.0, 1)])
    derived = derive(ratings, np.array([10, 20, 30]), max_likes_per_user=2)
    pairs = set(zip(derived.similar.source.tolist(), derived.similar.target.tolist(), strict=True))
    assert pairs == {(20, 30), (30, 20)}
    assert (derived.capped_users, derived.likes_left_out) == (1, 1)
    assert derived.stats.like_count.tolist() == [2, 1, 1]  # statistics use every like
    assert "bound hit" in derived.note()
