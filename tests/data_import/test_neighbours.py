"""Derived data (rating statistics, SIMILAR) against a plain-Python count from ratings.csv."""

from __future__ import annotations

import csv
from collections import defaultdict
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from scipy import sparse

from data_import.importer import ImportOptions, import_release
from data_import.item_weights import BY_MOVIE_EASE, BY_MOVIE_PRIOR, ease
from data_import.neighbours import BY_MOVIE_K, TOP_K, derive
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


def co_likes(ratings_csv: Path, movie: int) -> dict[int, int]:
    data = _independent(ratings_csv)
    mine = data["likers"][movie]
    return {o: len(mine & users) for o, users in data["likers"].items() if o != movie}


@pytest.mark.parametrize("movie", [TOY_STORY, MATRIX, HEAT, RARE])
def test_similar_edges_are_ranked_for_by_movie_with_true_support(
    movie_graph: Any, ml_small: Path, movie: int
) -> None:
    edges = movie_graph.read("test/similar_by_id", {"movieId": movie})
    data = _independent(ml_small / "ratings.csv")
    support = co_likes(ml_small / "ratings.csv", movie)
    assert [e["support"] for e in edges] == [support[e["movieId"]] for e in edges]
    assert [e["rank"] for e in edges] == list(range(1, len(edges) + 1))
    # rank: the smoothed share of the movie's fans who liked the other, plus a multiple of the
    # weight
    fans = len(data["likers"][movie])
    users = len(set().union(*data["likers"].values()))
    prior = BY_MOVIE_PRIOR
    keys = [
        (e["support"] + prior * len(data["likers"][e["movieId"]]) / users) / (fans + prior)
        + BY_MOVIE_EASE * e["weight"]
        for e in edges
    ]
    assert keys == pytest.approx(sorted(keys, reverse=True), rel=1e-6)
    assert all(e["weight"] != 0 for e in edges)
    assert movie not in [e["movieId"] for e in edges]
    # the TOP_K largest positive weights carry a score (what personal recommendations add
    # up); the BY_MOVIE_K most liked together besides carry 0 (kept for by movie only)
    personal = [e for e in edges if e["score"] > 0]
    assert all(e["score"] == 0 for e in edges if e not in personal)
    assert all(e["weight"] > 0 for e in personal)
    positive = sum(e["weight"] > 0 for e in edges)
    assert len(personal) == TOP_K or (len(personal) == positive and positive < TOP_K)
    weakest = min((e["weight"] for e in personal), default=0.0)
    assert all(e["weight"] <= weakest for e in edges if e not in personal)
    assert len(edges) <= TOP_K + BY_MOVIE_K
    # (the popularity prior adds less than 2 to a support when choosing them)
    most_liked_with = sorted(support.values(), reverse=True)[BY_MOVIE_K - 1]
    assert {o for o, n in support.items() if n > most_liked_with + 2} <= {
        e["movieId"] for e in edges
    }


def test_toy_story_strongest_weights_are_its_kind_and_by_movie_mixes_in_favourites(
    movie_graph: Any,
) -> None:
    # co-like counts alone put Shawshank, Forrest Gump, Star Wars first; the EASE weights put
    # the sequels and films of its kind first; the by-movie order has both in its first 5
    edges = movie_graph.read("test/similar_by_id", {"movieId": 1})
    by_weight = [e["movieId"] for e in sorted(edges, key=lambda e: -e["weight"])][:5]
    assert by_weight[0] == 3114  # Toy Story 2
    assert len({34, 364, 6377} & set(by_weight)) >= 2  # Babe, The Lion King, Finding Nemo
    assert not {318, 356, 260} & set(by_weight)
    first = [e["movieId"] for e in edges][:5]
    assert 3114 in first and {318, 260} <= set(first)


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
    # users 1 and 2 like movie 10; movies 20, 30, 40 are each liked by one of them: the same
    # cosine (no EASE head here) from 10 to each.
    ratings = _ratings([
        (1, 10, 5.0, 1), (2, 10, 4.0, 1),
        (1, 20, 4.0, 1), (2, 30, 4.0, 1), (1, 40, 5.0, 1), (3, 30, 1.0, 1),
    ])  # fmt: skip
    derived = derive(ratings, np.array([10, 20, 30, 40, 50]), ease_max_items=0)
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


def test_ease_weights_on_likes_and_popularity() -> None:
    # user 1 likes movies 10 (5 stars) and 20 (4), user 2 likes 10: 0/1 likes, stars do not
    # count. Gram matrix [[2, 1], [1, 1]]; with two movies B[i, j] = G[i, j] / (G[i, i] + lambda);
    # the score divides it by the target's likes ** 0.25 (movie 10 has 2 likes, movie 20 one).
    ratings = _ratings([(1, 10, 5.0, 1), (1, 20, 4.0, 2), (2, 10, 4.0, 3)])
    similar = derive(ratings, np.array([10, 20]), lam=400.0, damping=0.25).similar
    pairs = list(zip(similar.source.tolist(), similar.target.tolist(), strict=True))
    weight = dict(zip(pairs, similar.weight.tolist(), strict=True))
    score = dict(zip(pairs, similar.score.tolist(), strict=True))
    assert weight == {(10, 20): pytest.approx(1 / 402), (20, 10): pytest.approx(1 / 401)}
    assert score == {(10, 20): pytest.approx(1 / 402), (20, 10): pytest.approx(1 / 401 / 2**0.25)}
    assert similar.support.tolist() == [1, 1]


def test_cosine_outside_the_ease_head_shrinks_rare_pairs() -> None:
    # 10 and 20 liked together by one of the two users who like 10: 1 / (sqrt(2 * 1) + 10)
    ratings = _ratings([(1, 10, 5.0, 1), (1, 20, 4.0, 2), (2, 10, 4.0, 3)])
    similar = derive(ratings, np.array([10, 20]), ease_max_items=0).similar
    assert similar.score[similar.source == 10].tolist() == [pytest.approx(1 / (2**0.5 + 10))]


def test_top_k_keeps_the_strongest_positive_weights() -> None:
    # EASE has negative weights too; a movie keeps its largest positive ones (negative ones
    # kept among the top k measured worse: docs/recommendations.md)
    rng = np.random.default_rng(3)
    rows = [(u, m, 4.0 + (u * m) % 3 / 2, u) for u in range(40) for m in range(12)
            if rng.random() < 0.35]  # fmt: skip
    ratings = _ratings(rows)
    movies = np.arange(12)
    b = ease(derive_likes(ratings, movies), 5.0)
    assert (b < 0).any()
    top = derive(ratings, movies, top_k=4, by_movie_k=0, lam=5.0, damping=0.0).similar
    for movie in range(12):
        positive = np.sort(b[movie][b[movie] > 0])[::-1]
        mine = top.score[top.source == movie]
        assert sorted(mine.tolist(), reverse=True) == pytest.approx(positive[:4].tolist())
        assert top.rank[top.source == movie].tolist() == list(range(1, len(mine) + 1))


def derive_likes(ratings: RatingArrays, movies: np.ndarray) -> sparse.csr_matrix:
    """The users x movies 0/1 like matrix (every movie here has a like)."""
    liked = ratings.rating >= 4.0
    users, row = np.unique(ratings.user[liked], return_inverse=True)
    column = np.searchsorted(movies, ratings.movie[liked])
    ones = np.ones(len(row), np.float32)
    return sparse.csr_matrix((ones, (row, column)), shape=(len(users), len(movies)))


def test_by_movie_k_adds_the_most_liked_together() -> None:
    # cosine only: 30 of the 35 fans of movie 10 like 20, which 1,000 others like too; the 5
    # others like 30 and nobody else does: 30 has the larger weight, 20 the larger support
    rows = [(u, m, 4.0, u) for u in range(30) for m in (10, 20)]
    rows += [(u, m, 4.0, u) for u in range(30, 35) for m in (10, 30)]
    rows += [(u, 20, 4.0, u) for u in range(35, 1035)]
    ratings = _ratings(rows)
    movies = np.array([10, 20, 30])
    by_weight = derive(ratings, movies, top_k=1, by_movie_k=0, ease_max_items=0).similar
    assert by_weight.target[by_weight.source == 10].tolist() == [30]
    both = derive(ratings, movies, top_k=1, by_movie_k=1, ease_max_items=0).similar
    from_10 = both.source == 10
    # both kept, in the by-movie order: the smoothed share of 10's 35 fans who liked each,
    # (30 + 2 * 1030 / 1035) / 37 against (5 + 2 * 5 / 1035) / 37, plus BY_MOVIE_EASE x weight
    targets = both.target[from_10].tolist()
    assert sorted(targets) == [20, 30]
    assert dict(zip(targets, both.support[from_10].tolist(), strict=True)) == {20: 30, 30: 5}
    weight = dict(zip(targets, both.weight[from_10].tolist(), strict=True))
    share = {20: (30 + 2 * 1030 / 1035) / 37, 30: (5 + 2 * 5 / 1035) / 37}
    key = {m: share[m] + BY_MOVIE_EASE * weight[m] for m in (20, 30)}
    assert targets == sorted(key, key=lambda m: -key[m])
