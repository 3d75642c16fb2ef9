"""Derived data for the recommender: per-movie rating statistics and SIMILAR neighbourhoods.

The contract the semantic layer reads:

- `Movie.ratingCount` (ratings), `Movie.ratingAvg` (their mean; absent without ratings) and
  `Movie.likeCount` (users who rated the movie 4.0 or more);
- `(:Movie)-[:SIMILAR {weight, score, support, rank}]->(:Movie)`: `weight` is what liking the
  source adds to the target (an item-item weight, see `item_weights`; negative: liking the
  source counts against the target); `support` is the number of distinct users who liked
  (rated >= 4.0) both movies. Each movie keeps the `TOP_K` others with the largest positive
  weight, whose `score` (the weight damped by the target's popularity) personal
  recommendations add up, and the `BY_MOVIE_K` most liked together with it (support plus a
  popularity prior, see `item_weights.by_movie_prior`), whose `score` is 0 unless they are
  among the first; all ranked 1..n by `item_weights.by_movie` (desc), then weight (desc),
  then the other's ratingAvg (desc), then its movieId (asc): the order of recommendations by
  movie.

Support is the co-occurrence matrix `L^T L` of the users x movies like matrix `L`, computed with
scipy in blocks of source movies so that memory stays bounded whatever the release size. The
weight comes from EASE for the `EASE_MAX_ITEMS` most liked movies and from cosine with
shrinkage for the others (`item_weights`). Choices measured with `python -m
benchmarks.rec_quality` (docs/recommendations.md).

The bound: its cost grows with the square of each user's like count, and a few users of ml-25m
like thousands of movies. So each user contributes at most their `max_likes_per_user` most
recent likes to support and scores (ties by movieId). The default, 2,000, is above every user
of ml-latest-small (at most 1,227 likes), where the figures are exact; the report says how many
users and likes the bound left out. The statistics always use every rating.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy import sparse

from data_import import item_weights
from data_import.rating_arrays import RatingArrays

LIKE = 4.0
TOP_K = 150  # neighbours by weight (> 0): what personal recommendations add up ...
BY_MOVIE_K = 30  # ... and by support: what recommendations by movie need besides
MAX_LIKES_PER_USER = 2_000
BLOCK_CELLS = 1 << 23  # support values held at once per block (32 MiB as int32)


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
    """SIMILAR edges as parallel arrays of movieIds, weight, score, support and rank."""

    source: np.ndarray
    target: np.ndarray
    weight: np.ndarray
    score: np.ndarray
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
    ease_movies: int = 0
    cosine_movies: int = 0

    def summary(self) -> dict[str, Any]:
        return {
            "similar_edges": len(self.similar),
            "top_k": TOP_K,
            "by_movie_k": BY_MOVIE_K,
            "ease_movies": self.ease_movies,
            "cosine_movies": self.cosine_movies,
            "max_likes_per_user": self.max_likes_per_user,
            "capped_users": self.capped_users,
            "likes_left_out": self.likes_left_out,
            "exact": self.capped_users == 0,
        }

    def note(self) -> str:
        text = (
            f"derived data: {len(self.similar):,} SIMILAR edges (per movie the top {TOP_K} by "
            f"positive weight and the {BY_MOVIE_K} most liked with it; EASE "
            f"weights for {self.ease_movies:,} movies, cosine for {self.cosine_movies:,})"
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


@dataclass(frozen=True)
class _Likes:
    """The (bounded) likes of the active movies (those with a like), as sparse matrices."""

    binary: sparse.csr_matrix  # users x active, 1 per like
    count: np.ndarray  # likes per active movie


def derive(
    ratings: RatingArrays,
    movie_ids: np.ndarray,
    top_k: int = TOP_K,
    by_movie_k: int = BY_MOVIE_K,
    max_likes_per_user: int = MAX_LIKES_PER_USER,
    block_cells: int = BLOCK_CELLS,
    ease_max_items: int = item_weights.EASE_MAX_ITEMS,
    lam: float = item_weights.LAMBDA,
    damping: float = item_weights.DAMPING,
) -> Derived:
    """Statistics and SIMILAR neighbourhoods from one rating per (user, movie)."""
    stats = movie_stats(ratings, movie_ids)
    liked = ratings.rating >= LIKE
    users, user_row = np.unique(ratings.user[liked], return_inverse=True)
    column = np.searchsorted(stats.movie_ids, ratings.movie[liked])
    keep, capped, left_out = _recent_likes(user_row, ratings.timestamp[liked], column,
                                           max_likes_per_user)  # fmt: skip
    user_row, column = user_row[keep], column[keep]

    # Only movies with a like can be a source or a target (a score needs a like).
    active, column = np.unique(column, return_inverse=True)
    shape = (len(users), len(active))
    binary = sparse.csr_matrix((np.ones(len(column), np.int32), (user_row, column)), shape=shape)
    likes = _Likes(
        binary=binary,
        count=np.asarray(binary.sum(axis=0)).ravel().astype(np.int64),
    )
    preference = _tie_preference(stats.rating_avg[active], stats.movie_ids[active])
    source, target, weight, score, support, rank = _neighbours(
        likes, preference, (top_k, by_movie_k), block_cells, ease_max_items, lam, damping
    )
    ids = stats.movie_ids[active]
    similar = Similar(ids[source], ids[target], weight, score, support, rank)
    ease_movies = min(len(active), ease_max_items)
    return Derived(stats, similar, max_likes_per_user, capped, left_out, ease_movies,
                   len(active) - ease_movies)  # fmt: skip


def _neighbours(
    likes: _Likes,
    preference: np.ndarray,
    top_k: tuple[int, int],
    block_cells: int,
    ease_max_items: int,
    lam: float,
    damping: float,
) -> tuple[np.ndarray, ...]:
    """(source, target, weight, score, support, rank) over active movie indexes, by blocks of
    sources.

    EASE rows for the head (the most liked movies); cosine rows for the others, rescaled so that
    their mean strongest weight equals that of the EASE rows (both measured on the head). Each
    movie keeps the targets with the largest positive weight (the only ones with a `score`)
    and those most often liked with it; `rank` orders them for recommendations by movie
    (`item_weights.by_movie`).
    """
    n, users = len(likes.count), likes.binary.shape[0]
    head = np.sort(np.argsort(-likes.count, kind="stable")[:ease_max_items])
    in_head = np.full(n, -1)
    in_head[head] = np.arange(len(head))
    b = item_weights.ease(likes.binary[:, head], lam) if len(head) else np.empty((0, 0))
    damp = item_weights.damping(likes.count, damping)
    prior = item_weights.by_movie_prior(likes.count, users)
    prior32 = prior.astype(np.float32)
    by_movie = likes.binary.T.tocsr()
    size = max(1, block_cells // max(n, 1))
    parts, strongest = [], np.zeros(2)  # sums over head rows of the top |EASE| and |cosine|
    for start in range(0, n, size):
        stop = min(n, start + size)
        support = (by_movie[start:stop] @ likes.binary).toarray()
        support[np.arange(stop - start), np.arange(start, stop)] = 0  # never the movie itself
        weight = item_weights.cosine(support, likes.count[start:stop], likes.count)
        rows = in_head[start:stop]
        is_head = rows >= 0
        if is_head.any():
            strongest[1] += np.abs(weight[is_head]).max(axis=1).sum()
            ease_rows = np.zeros((int(is_head.sum()), n), np.float32)
            ease_rows[:, head] = b[rows[is_head]]
            weight[is_head] = ease_rows
            strongest[0] += np.abs(ease_rows).max(axis=1).sum()
        together = support.astype(np.float32)  # float32 and in place: 25M blocks are large
        np.add(together, prior32, out=together, where=support > 0)
        personal = _strongest(weight, top_k[0], preference)
        picked = personal | _strongest(together, top_k[1], preference)
        del together
        row, target = np.nonzero(picked)
        parts.append((row + start, target, weight[row, target], support[row, target],
                      ~is_head[row], personal[row, target]))  # fmt: skip
    source, target, weight, support, tail, personal = (
        np.concatenate([p[i] for p in parts]) if parts else np.empty(0) for i in range(6)
    )
    source, target = source.astype(np.int64), target.astype(np.int64)
    weight = weight.astype(np.float64)
    if strongest.all():
        weight = np.where(tail, weight * (strongest[0] / strongest[1]), weight)
    key = item_weights.by_movie(support, likes.count[source], prior[target], weight)
    order = np.lexsort((-preference[target], -weight, -key, source))
    source, target, weight, support = source[order], target[order], weight[order], support[order]
    score = np.where(personal[order].astype(bool), weight * damp[target], 0.0)
    rank = _position(source, n) + 1
    return (source, target, weight, score, support.astype(np.int64),
            rank.astype(np.int64))  # fmt: skip


def _strongest(key: np.ndarray, k: int, preference: np.ndarray) -> np.ndarray:
    """A mask of each row's `k` largest entries of `key` (never 0; ties: preferred first)."""
    rows, n = key.shape
    mask = np.zeros(key.shape, bool)
    if k <= 0:
        return mask
    if k < n:
        threshold = np.partition(key, n - k, axis=1)[:, n - k]
        candidate = (key >= threshold[:, None]) & (key > 0)
    else:
        candidate = key > 0
    row, target = np.nonzero(candidate)
    order = np.lexsort((-preference[target], -key[row, target], row))
    row, target = row[order], target[order]
    keep = _position(row, rows) < k
    mask[row[keep], target[keep]] = True
    return mask


def _position(row: np.ndarray, rows: int) -> np.ndarray:
    """Each entry's position within its row (entries sorted by row)."""
    first = np.concatenate(([0], np.cumsum(np.bincount(row, minlength=rows))[:-1]))
    return np.arange(len(row)) - first[row]


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
