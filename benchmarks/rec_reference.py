"""Reference recommenders for `rec_quality`, computed with numpy from the train split alone.

- most liked: movies by number of train likes (ratings >= 4);
- co-like counts: top 50 neighbours per movie by users who liked both, a user's 50 best and most
  recent likes as seeds, support summed (what SIMILAR and `recommend/for_user` did first);
- item kNN: cosine of like vectors, top 50 neighbours per movie, every like a seed;
- EASE (Steck 2019): binary likes, the full dense model, lambda = 200 (the reference to beat)
  and any other lambdas asked for (`rec_quality --ease-lambdas`), so that the best-tuned EASE
  of the run can be named.

Likes are train ratings >= the split's like threshold (4 unless the protocol says otherwise).

By movie, each method ranks the others from one movie's row (co-like counts, cosine, EASE) or
by popularity. Everything works on the movies with at least one train like (no other movie can
score), as dense matrices: fine for ml-latest-small, not meant for ml-25m.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np
from scipy import sparse

from benchmarks.rec_protocol import TOP, Split

NEIGHBOURS = 50
SEEDS = 50
LAMBDA = 200.0


@dataclass
class TrainLikes:
    movies: np.ndarray  # movieId per column (movies with a train like), ascending
    users: np.ndarray  # evaluated users, one row each
    likes: sparse.csr_matrix  # every train user x movies, 1 per like
    row_of: dict[int, int]  # userId -> row of `likes`
    rated: np.ndarray  # evaluated users x movies, True where rated in train
    average: np.ndarray  # train mean rating per movie (ties)
    _ease: dict[float, np.ndarray] = field(default_factory=dict)

    @cached_property
    def count(self) -> np.ndarray:
        return np.asarray(self.likes.sum(axis=0)).ravel()

    @cached_property
    def support(self) -> np.ndarray:
        support = (self.likes.T @ self.likes).toarray()
        np.fill_diagonal(support, 0)
        return support

    @cached_property
    def cosine(self) -> np.ndarray:
        return self.support / np.sqrt(np.outer(self.count, self.count))

    @property
    def ease(self) -> np.ndarray:
        return self.ease_at(LAMBDA)

    def ease_at(self, lam: float) -> np.ndarray:
        if lam not in self._ease:
            self._ease[lam] = ease(self.likes, lam)
        return self._ease[lam]


def train_likes(split: Split) -> TrainLikes:
    train = split.train
    liked = train.rating >= split.like
    movies = np.unique(train.movie[liked])
    all_users, row = np.unique(train.user[liked], return_inverse=True)
    column = np.searchsorted(movies, train.movie[liked])
    shape = (len(all_users), len(movies))
    likes = sparse.csr_matrix((np.ones(len(row)), (row, column)), shape=shape)
    users = np.array(split.users, np.int64)
    known = np.isin(train.movie, movies)
    in_eval = np.isin(train.user, users)
    pick = known & in_eval
    rated = np.zeros((len(users), len(movies)), bool)
    rated[np.searchsorted(users, train.user[pick]), np.searchsorted(movies, train.movie[pick])] = 1
    sums = np.bincount(np.searchsorted(movies, train.movie[known]), train.rating[known],
                       len(movies))  # fmt: skip
    counts = np.bincount(np.searchsorted(movies, train.movie[known]), minlength=len(movies))
    row_of = {int(u): i for i, u in enumerate(all_users)}
    return TrainLikes(movies, users, likes, row_of, rated, sums / np.maximum(counts, 1))


def ease_name(lam: float) -> str:
    return f"EASE, lambda {lam:g}"


def personal(
    data: TrainLikes, split: Split, lambdas: tuple[float, ...] = (LAMBDA,)
) -> dict[str, dict[int, list[int]]]:
    """Top-10 lists per evaluated user, per reference method (EASE once per lambda)."""
    x = data.likes[[data.row_of[u] for u in data.users]].toarray()
    scores: dict[str, Callable[[], np.ndarray]] = {
        "most liked": lambda: np.tile(data.count, (len(data.users), 1)),
        "co-like counts, top 50, 50 seeds": lambda: (
            _seeds(data, split)
            @ _top_rows(data.support + data.average[None, :] / 10, NEIGHBOURS, data.support)
        ),
        "item kNN cosine, top 50": lambda: x @ _top_rows(data.cosine, NEIGHBOURS),
    }
    lists = {name: _lists(data, score()) for name, score in scores.items()}
    for lam in lambdas:
        lists[ease_name(lam)] = _lists(data, x @ data.ease_at(lam))
    return lists


def by_movie(data: TrainLikes, split: Split) -> dict[str, dict[int, list[int]]]:
    """Top-10 lists per evaluated user from their anchor movie alone, per reference method."""
    anchor = np.searchsorted(data.movies, [split.anchor[u] for u in data.users])
    support = data.support[anchor]
    scores: dict[str, Callable[[], np.ndarray]] = {
        "most liked": lambda: np.tile(data.count, (len(data.users), 1)),
        "co-like counts": lambda: support + data.average[None, :] / 10 * (support > 0),
        "item kNN cosine": lambda: data.cosine[anchor],
        ease_name(LAMBDA): lambda: data.ease[anchor],
    }
    return {name: _lists(data, score()) for name, score in scores.items()}


def ease(likes: sparse.csr_matrix, lam: float = LAMBDA) -> np.ndarray:
    gram = (likes.T @ likes).toarray()
    gram[np.diag_indices_from(gram)] += lam
    p = np.linalg.inv(gram)
    b = -p / np.diag(p)[None, :]
    np.fill_diagonal(b, 0.0)
    return b


def _top_rows(key: np.ndarray, k: int, values: np.ndarray | None = None) -> np.ndarray:
    """Each row keeps its `k` largest entries of `key` (as `values`, default `key`), zero else."""
    values = key if values is None else values
    index = np.argpartition(-key, k, axis=1)[:, :k]
    rows = np.arange(key.shape[0])[:, None]
    out = np.zeros_like(values, dtype=np.float64)
    out[rows, index] = values[rows, index]
    return np.maximum(out, 0)


def _seeds(data: TrainLikes, split: Split) -> np.ndarray:
    """Each evaluated user's SEEDS best, then most recent, likes as a 0/1 matrix."""
    t = split.train
    pick = (t.rating >= split.like) & np.isin(t.user, data.users)
    order = np.lexsort((-t.timestamp[pick], -t.rating[pick], t.user[pick]))
    user, movie = t.user[pick][order], t.movie[pick][order]
    first = np.searchsorted(user, user, side="left")
    keep = np.arange(len(user)) - first < SEEDS
    seeds = np.zeros((len(data.users), len(data.movies)))
    seeds[np.searchsorted(data.users, user[keep]), np.searchsorted(data.movies, movie[keep])] = 1
    return seeds


def _lists(data: TrainLikes, score: np.ndarray) -> dict[int, list[int]]:
    score = np.where(data.rated | (score <= 0), -np.inf, score.astype(np.float64))
    top = np.argsort(-score, axis=1, kind="stable")[:, :TOP]
    lists = {}
    for i, user in enumerate(data.users.tolist()):
        lists[user] = [int(data.movies[j]) for j in top[i] if score[i, j] > -np.inf]
    return lists
