"""Derived data for the recommender: per-movie rating statistics and SIMILAR neighbourhoods.

The contract the semantic layer reads:

- `Movie.ratingCount` (ratings), `Movie.ratingAvg` (their mean; absent without ratings) and
  `Movie.likeCount` (users who rated the movie 4.0 or more);
- `(:Movie)-[:SIMILAR {support, rank}]->(:Movie)`: `support` is the number of distinct users
  who liked (rated >= 4.0) both movies; each movie keeps its top `TOP_K` others ordered by
  support (desc), the other's ratingAvg (desc), the other's movieId (asc), ranked 1..TOP_K,
  and only those with support >= 1.

Support is the co-occurrence matrix `L^T L` of the users x movies like matrix `L`, computed with
scipy in blocks of source movies so that memory stays bounded whatever the release size.

The bound: its cost grows with the square of each user's like count, and a few users of ml-25m
like thousands of movies. So each user contributes at most their `max_likes_per_user` most
recent likes to support (ties by movieId). The default, 2,000, is above every user of
ml-latest-small (at most 1,227 likes), where the figures are exact; the report says how many
users and likes the bound left out. The statistics always use every rating.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy import sparse

from data_import.rating_arrays import RatingArrays

LIKE = 4.0
TOP_K = 50
MAX_LIKES_PER_USER = 2_000
BLOCK_CELLS = 1 << 23  # support values held at once per block (64 MiB as int64)


@dataclass(frozen=True)
class MovieStats:
    """Statistics per movie, aligned with `movie_ids` (sorted)."""

    movie_ids: np.ndarray
    rating_count: np.ndarray
    rating_sum: np.ndarray
    like_count: np.ndarray

    @property
    def rating_avg(self) -> np.ndarray:
        with np.errstate(invalid="ignore", divide="ignore"):
            return self.rating_sum / self.rating_count


@dataclass(frozen=True)
class Similar:
    """SIMILAR edges as parallel arrays of movieIds, support and rank."""

    source: np.ndarray
    target: np.ndarray
    support: np.ndarray
    rank: np.ndarray

    def __len__(self) -> int:
        return len(self.source)


@dataclass(frozen=True)
class Derived:
    stats: MovieStats
    similar: Similar
    max_likes_per_user: int
    capped_users: int
    likes_left_out: int

    def summary(self) -> dict[str, Any]:
        return {
            "similar_edges": len(self.similar),
            "top_k": TOP_K,
            "max_likes_per_user": self.max_likes_per_user,
            "capped_users": self.capped_users,
            "likes_left_out": self.likes_left_out,
            "exact": self.capped_users == 0,
        }

    def note(self) -> str:
        text = (
            f"derived data: {len(self.similar):,} SIMILAR edges (top {TOP_K} per movie by "
            f"users who liked both)"
        )
        if self.capped_users:
            return (
                f"{text}; bound hit: {self.capped_users:,} users liked more than "
                f"{self.max_likes_per_user:,} movies, so only their {self.max_likes_per_user:,} "
                f"most recent likes count ({self.likes_left_out:,} likes left out of support)"
            )
        return f"{text}; exact (no user above {self.max_likes_per_user:,} likes)"


def movie_stats(ratings: RatingArrays, movie_ids: np.ndarray) -> MovieStats:
    """Counts, sums and likes per movie for every id in `movie_ids` (zero where unrated)."""
    ids = np.unique(movie_ids)
    column = np.searchsorted(ids, ratings.movie)
    if len(ratings) and not np.array_equal(ids[np.minimum(column, len(ids) - 1)], ratings.movie):
        raise ValueError("ratings name a movieId outside movie_ids")
    n = len(ids)
    liked = ratings.rating >= LIKE
    return MovieStats(
        movie_ids=ids,
        rating_count=np.bincount(column, minlength=n).astype(np.int64),
        rating_sum=np.bincount(column, weights=ratings.rating, minlength=n),
        like_count=np.bincount(column[liked], minlength=n).astype(np.int64),
    )


def derive(
    ratings: RatingArrays,
    movie_ids: np.ndarray,
    top_k: int = TOP_K,
    max_likes_per_user: int = MAX_LIKES_PER_USER,
    block_cells: int = BLOCK_CELLS,
) -> Derived:
    """Statistics and SIMILAR neighbourhoods from one rating per (user, movie)."""
    stats = movie_stats(ratings, movie_ids)
    liked = ratings.rating >= LIKE
    users, user_row = np.unique(ratings.user[liked], return_inverse=True)
    column = np.searchsorted(stats.movie_ids, ratings.movie[liked])
    keep, capped, left_out = _recent_likes(user_row, ratings.timestamp[liked], column,
                                           max_likes_per_user)  # fmt: skip
    user_row, column = user_row[keep], column[keep]

    # Only movies with a like can be a source or a target (support >= 1 needs a like).
    active, column = np.unique(column, return_inverse=True)
    likes = sparse.csr_matrix(
        (np.ones(len(column), np.int32), (user_row, column)), shape=(len(users), len(active))
    )
    by_movie = likes.T.tocsr()
    preference = _tie_preference(stats.rating_avg[active], stats.movie_ids[active])
    size = max(1, block_cells // max(len(active), 1))
    parts = [
        _block_neighbours(by_movie[start : start + size] @ likes, start, preference, top_k)
        for start in range(0, len(active), size)
    ]
    source, target, support, rank = (
        np.concatenate([p[i] for p in parts]) if parts else np.empty(0, np.int64) for i in range(4)
    )
    ids = stats.movie_ids[active]
    similar = Similar(ids[source], ids[target], support, rank)
    return Derived(stats, similar, max_likes_per_user, capped, left_out)


def _recent_likes(
    user_row: np.ndarray, timestamp: np.ndarray, column: np.ndarray, limit: int
) -> tuple[np.ndarray, int, int]:
    """Indexes of each user's `limit` most recent likes (ties: lower movie first)."""
    if not len(user_row):
        return np.arange(0), 0, 0
    counts = np.bincount(user_row)
    if counts.max() <= limit:
        return np.arange(len(user_row)), 0, 0
    order = np.lexsort((column, -timestamp, user_row))
    first = np.concatenate(([0], np.cumsum(counts)[:-1]))
    position = np.arange(len(order)) - first[user_row[order]]
    keep = np.sort(order[position < limit])
    return keep, int((counts > limit).sum()), len(order) - len(keep)


def _tie_preference(avg: np.ndarray, movie_ids: np.ndarray) -> np.ndarray:
    """A rank per movie, higher for a higher ratingAvg, then a lower movieId."""
    order = np.lexsort((movie_ids, -avg))  # best first
    preference = np.empty(len(order), np.int64)
    preference[order] = np.arange(len(order) - 1, -1, -1)
    return preference


def _block_neighbours(
    block: sparse.csr_matrix, start: int, preference: np.ndarray, top_k: int
) -> tuple[np.ndarray, ...]:
    """Top `top_k` targets per source row of a block of the support matrix.

    A row's k-th largest support is a threshold: every target at or above it is a candidate
    (ties included), and only the candidates are ranked by (support, preference). Sorting the
    int32 rows is the fastest way numpy has to find that threshold.
    """
    rows, n = block.shape
    support = block.toarray()
    support[np.arange(rows), np.arange(start, start + rows)] = 0  # never the movie itself
    if top_k < n:
        threshold = np.sort(support, axis=1)[:, n - top_k]
        candidate = support >= np.maximum(threshold, 1)[:, None]
    else:
        candidate = support >= 1
    row, target = np.nonzero(candidate)
    value = support[row, target].astype(np.int64)
    order = np.lexsort((-(value * n + preference[target]), row))
    row, target, value = row[order], target[order], value[order]
    first = np.concatenate(([0], np.cumsum(np.bincount(row, minlength=rows))[:-1]))
    rank = np.arange(len(row)) - first[row] + 1
    keep = rank <= top_k
    return row[keep] + start, target[keep], value[keep], rank[keep]
