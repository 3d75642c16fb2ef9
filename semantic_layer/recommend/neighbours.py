"""The item-item neighbourhoods (positive-score SIMILAR edges) in memory, for personal scores.

A personal request sums its ~150 seeds' neighbourhoods (about 25,000 edges on
ml-latest-small); in FalkorDB that expansion alone took 20-45 ms at load 2-5 on two cores, in
numpy it is a fraction of a millisecond. The edges change only with an import; the movies'
year and genres too. Rating statistics change with every rating in the app: the copy here
only pre-selects, and `taste_picks.cypher` checks the picks again on the graph as it is.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np

from semantic_layer.resolve.reader import Reader

LOAD_BATCH = 500  # movies whose neighbourhoods one query reads


@dataclass(frozen=True)
class Neighbours:
    movie_ids: np.ndarray  # int64, sorted: position i is movie movie_ids[i]
    indptr: np.ndarray  # CSR over positions: row i's edges are indptr[i]:indptr[i + 1]
    targets: np.ndarray  # int32 positions of the neighbours
    scores: np.ndarray  # float64 SIMILAR.score (> 0)
    year: np.ndarray  # float64, NaN without a year
    genre_names: tuple[str, ...]
    genres: np.ndarray  # bool, movies x genre_names
    rating_avg: np.ndarray  # float64 as loaded (NaN without ratings)
    rating_count: np.ndarray  # int64 as loaded
    like_count: np.ndarray  # float64 as loaded, NaN without

    @property
    def edges(self) -> int:
        return len(self.targets)

    def positions(self, movie_ids: Iterable[int]) -> np.ndarray:
        """Positions of the movies that are here (unknown ids are left out)."""
        ids = np.fromiter(movie_ids, dtype=np.int64)
        at = np.searchsorted(self.movie_ids, ids)
        at[at >= len(self.movie_ids)] = 0
        return at[self.movie_ids[at] == ids]

    def _edges_of(self, seeds: list[list[float]]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(seed index, target position, weight * score) of every edge of the seeds."""
        index = {int(s[0]): i for i, s in enumerate(seeds)}
        known = self.positions(index)
        starts, ends = self.indptr[known], self.indptr[known + 1]
        lengths = ends - starts
        if not lengths.sum():
            return np.empty(0, np.int64), np.empty(0, np.int64), np.empty(0)
        take = np.repeat(starts - np.cumsum(lengths) + lengths, lengths) + np.arange(lengths.sum())
        weights = np.array([seeds[index[int(self.movie_ids[p])]][1] for p in known])
        seed_of = np.repeat([index[int(self.movie_ids[p])] for p in known], lengths)
        return seed_of, self.targets[take], np.repeat(weights, lengths) * self.scores[take]

    def taste_scores(self, seeds: list[list[float]]) -> np.ndarray:
        """Per movie position: the sum over `seeds` ([movieId, weight]) of weight * score."""
        _, targets, parts = self._edges_of(seeds)
        return np.bincount(targets, weights=parts, minlength=len(self.movie_ids))

    def candidates(
        self, scores: np.ndarray, params: dict[str, Any], leave_out: set[int], damping: float
    ) -> list[list[float]]:
        """[movieId, score] of the movies with a positive score that satisfy the constraints
        `params` (as `Constraints.params` gives them) as loaded, none in `leave_out`, best
        first by score damped by likeCount ^ `damping` (then ratingAvg, then movieId)."""
        keep = (scores > 0) & self.admitted(params)
        if leave_out:
            keep[self.positions(leave_out)] = False
        at = np.flatnonzero(keep)
        with np.errstate(divide="ignore"):
            damped = scores[at] * np.where(np.isnan(self.like_count[at]), 1.0,
                                           self.like_count[at]) ** -damping  # fmt: skip
        avg = np.nan_to_num(self.rating_avg[at], nan=-np.inf)
        order = np.lexsort((self.movie_ids[at], -avg, -damped))
        return [[int(self.movie_ids[at[i]]), float(scores[at[i]])] for i in order]

    def best_rated(
        self, params: dict[str, Any], leave_out: set[int], prior_mean: float, prior_weight: float
    ) -> list[int]:
        """Ids of the movies that satisfy the constraints `params` as loaded, none in
        `leave_out`, best first by the damped mean rating the `recommend/pool_*` queries rank
        by (then more ratings, then movieId)."""
        keep = self.admitted(params)
        if leave_out:
            keep[self.positions(leave_out)] = False
        at = np.flatnonzero(keep)
        count = self.rating_count[at].astype(np.float64)
        mean = np.nan_to_num(self.rating_avg[at], nan=0.0)
        damped = (count * mean + prior_weight * prior_mean) / (count + prior_weight)
        order = np.lexsort((self.movie_ids[at], -count, -damped))
        return [int(i) for i in self.movie_ids[at[order]]]

    def admitted(self, params: dict[str, Any]) -> np.ndarray:
        """Per movie position: whether it satisfies the constraints `params` (as
        `Constraints.params` gives them) as loaded."""
        keep = np.ones(len(self.movie_ids), dtype=bool)
        if params["yearFrom"] is not None:
            keep &= self.year >= params["yearFrom"]
        if params["yearTo"] is not None:
            keep &= self.year <= params["yearTo"]
        keep &= self.rating_count >= params["minCount"]
        if params["maxCount"] is not None:
            keep &= self.rating_count < params["maxCount"]
        if params["allowed"] is not None:
            keep &= np.isin(self.movie_ids, np.asarray(params["allowed"], dtype=np.int64))
        return keep & self._genre_mask(params)

    def _genre_mask(self, params: dict[str, Any]) -> np.ndarray:
        column = {name: i for i, name in enumerate(self.genre_names)}
        keep = np.ones(len(self.movie_ids), dtype=bool)
        for name in params["genres"]:
            keep &= self.genres[:, column[name]] if name in column else False
        if params["anyGenres"] is not None:
            cols = [column[n] for n in params["anyGenres"] if n in column]
            keep &= self.genres[:, cols].any(axis=1) if cols else False
        for name in params["excludeGenres"]:
            if name in column:
                keep &= ~self.genres[:, column[name]]
        return keep

    def taste_of(
        self, seeds: list[list[float]], titles: dict[int, str], movie_ids: list[int]
    ) -> dict[int, dict[str, Any]]:
        """What the seeds say about each of `movie_ids` that one of them neighbours, as
        `taste_of.cypher` gives it: `score` (the sum of weight * score), `seeds` (how many
        liked seeds add to it) and `because` (the titles of the first 3, strongest first)."""
        seed_of, targets, parts = self._edges_of(seeds)
        wanted = self.positions(movie_ids)
        hit = np.isin(targets, wanted)
        seed_of, targets, parts = seed_of[hit], targets[hit], parts[hit]
        seed_ids = np.array([int(s[0]) for s in seeds], dtype=np.int64)
        found: dict[int, dict[str, Any]] = {}
        for position in np.unique(targets):
            mine = targets == position
            part, seed = parts[mine], seed_ids[seed_of[mine]]
            order = np.lexsort((seed, -part))
            liked = [titles.get(int(seed[i]), "") for i in order if part[i] > 0]
            movie_id = int(self.movie_ids[position])
            found[movie_id] = {"movieId": movie_id, "score": float(part.sum()),
                               "seeds": len(liked), "because": liked[:3]}  # fmt: skip
        return found


def load_neighbours(graph: Reader) -> Neighbours:
    """Read every movie and its positive-score neighbourhood from `graph`, in batches."""
    movies = sorted(graph.read("recommend/neighbour_movies"), key=lambda r: r["movieId"])
    movie_ids = np.array([r["movieId"] for r in movies], dtype=np.int64)
    genre_names = tuple(sorted({g for r in movies for g in r["genres"] or ()}))
    column = {name: i for i, name in enumerate(genre_names)}
    genres = np.zeros((len(movies), len(genre_names)), dtype=bool)
    for i, row in enumerate(movies):
        genres[i, [column[g] for g in row["genres"] or ()]] = True
    lists: dict[int, tuple[list[int], list[float]]] = {}
    for start in range(0, len(movies), LOAD_BATCH):
        batch = [int(i) for i in movie_ids[start : start + LOAD_BATCH]]
        for row in graph.read("recommend/neighbour_edges", {"movieIds": batch}):
            lists[row["movieId"]] = (row["neighbours"], row["scores"])
    lengths = np.array([len(lists.get(int(m), ((), ()))[0]) for m in movie_ids], dtype=np.int64)
    indptr = np.concatenate(([0], np.cumsum(lengths)))
    flat_ids = np.fromiter((t for m in movie_ids for t in lists.get(int(m), ((), ()))[0]),
                           dtype=np.int64, count=int(indptr[-1]))  # fmt: skip
    scores = np.fromiter((s for m in movie_ids for s in lists.get(int(m), ((), ()))[1]),
                         dtype=np.float64, count=int(indptr[-1]))  # fmt: skip
    return Neighbours(
        movie_ids=movie_ids,
        indptr=indptr,
        targets=np.searchsorted(movie_ids, flat_ids).astype(np.int32),
        scores=scores,
        year=_floats(r["year"] for r in movies),
        genre_names=genre_names,
        genres=genres,
        rating_avg=_floats(r["ratingAvg"] for r in movies),
        rating_count=np.array([r["ratingCount"] or 0 for r in movies], dtype=np.int64),
        like_count=_floats(r["likeCount"] for r in movies),
    )


def _floats(values: Iterable[Any]) -> np.ndarray:
    return np.array([np.nan if v is None else float(v) for v in values], dtype=np.float64)
