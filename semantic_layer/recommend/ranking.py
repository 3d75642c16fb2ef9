"""Ranking inside constraints: movies like the ones named, then the user's taste, then ratings.

Three sources, in this order, fill the list; each returns only movies that satisfy every
constraint and that the user has not rated:

- `like`: with seed movies, their SIMILAR neighbours (`recommend/like_movies`), shared
  neighbours of several seeds first; a user with ratings re-ranks them by taste (likes pull,
  dislikes push: `TASTE_WEIGHT`);
- `taste`: without seed movies, the user's likes and dislikes summed over SIMILAR
  (`recommend/by_taste`, or in memory with `Request.neighbours` and then checked again by
  `recommend/taste_picks`), damped by popularity (`DAMPING`);
- `rating`: the damped mean rating (`recommend/pool_*`), to fill what the others leave, and
  all there is for a user with no ratings; movies like what the user disliked go last.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Literal

from semantic_layer.recommend.constraints import Bands, Constraints
from semantic_layer.recommend.neighbours import Neighbours
from semantic_layer.recommend.taste import Taste
from semantic_layer.resolve.reader import Reader

Source = Literal["like", "taste", "rating"]
RANK_OFFSET = 10  # like: each seed gives a neighbour 1 / (RANK_OFFSET + its rank)
TASTE_WEIGHT = 0.02  # like: the user's taste (from -1 to 1 of its largest) adds this much
LIKE_POOL = 3  # like: this many times the limit are re-ranked by taste
DAMPING = 0.23  # taste: each score is divided by the candidate's likes ** DAMPING ...
TOP_K = 150  # ... and the genre checks run on this many best (the pool fills the rest)
PICK_MARGIN = 20  # in memory: this many candidates more than asked are checked on the graph
POOL_TOP_K = 150  # rating: the genre checks run on this many best, then on all if too few pass
ALL = 1_000_000_000
MIN_POOL_RATINGS = 10  # rating: movies with fewer ratings only when people narrow the pool
PRIOR_MEAN = 3.5  # rating: each mean is damped towards the MovieLens-wide mean ...
PRIOR_WEIGHT = 10  # ... as if it had this many extra ratings at that mean


@dataclass
class Pick:
    """One recommended movie, where it came from and what speaks for it."""

    movie: dict[str, Any]  # movieId, title, year, genres, ratingAvg, ratingCount, score
    source: Source
    because: list[str] = field(default_factory=list)  # liked or named movies behind it
    seeds: int = 0  # how many of them in all
    support: int | None = None  # one named movie: viewers who liked both
    loosened: str | None = None  # what was loosened to let it in


@dataclass(frozen=True)
class Request:
    constraints: Constraints
    user_id: int
    limit: int
    movies: list[dict[str, Any]] = field(default_factory=list)  # movieId, label
    taste: Taste = field(default_factory=Taste)
    allowed: list[int] | None = None  # the people's movies, when people are named
    filling: bool = False  # loosened constraints fill up: the pool, ranked by taste, not by_taste
    neighbours: Neighbours | None = None  # the SIMILAR edges in memory, once loaded
    read_once: dict[str, Any] = field(default_factory=dict, compare=False)  # shared by replace()


def rank(graph: Reader, request: Request, bands: Bands, skip: set[int]) -> list[Pick]:
    """Up to `request.limit` picks, none in `skip` and none of the movies named, best first."""
    skip = skip | {m["movieId"] for m in request.movies}  # "like Heat" never offers Heat
    base = {"userId": request.user_id, **request.constraints.params(bands, request.allowed)}
    picks: list[Pick] = []
    if request.movies:
        picks = _like(graph, request, base, skip)
    elif request.taste.liked and not request.filling:
        picks = _taste(graph, request, base, skip)
    if len(picks) < request.limit:
        taken = skip | {p.movie["movieId"] for p in picks}
        picks += _rating(graph, request, base, taken, request.limit - len(picks))
    return picks[: request.limit]


def _like(graph: Reader, request: Request, base: dict[str, Any], skip: set[int]) -> list[Pick]:
    ids = [m["movieId"] for m in request.movies]
    labels = {m["movieId"]: m["label"] for m in request.movies}
    rows = graph.read(
        "recommend/like_movies",
        {**base, "movieIds": ids, "rankOffset": RANK_OFFSET,
         "limit": (request.limit + len(skip)) * (LIKE_POOL if request.taste.known else 1)},
    )  # fmt: skip
    rows = [r for r in rows if r["movieId"] not in skip]
    if request.taste.known and rows:
        taste = _taste_of(graph, request, [r["movieId"] for r in rows])
        scale = max((abs(t["score"]) for t in taste.values()), default=0.0) or 1.0
        for row in rows:
            row["score"] += TASTE_WEIGHT * taste.get(row["movieId"], {}).get("score", 0) / scale
        rows.sort(key=lambda r: (-r["score"], r["movieId"]))
    picks = []
    for row in rows[: request.limit]:
        seeds = row.pop("seeds")
        hit = {s[0] for s in seeds}
        names = [labels[i] for i in ids if i in hit]
        support = seeds[0][1] if len(seeds) == 1 else None
        picks.append(Pick(row, "like", names, len(names), support))
    return picks


def _taste(graph: Reader, request: Request, base: dict[str, Any], skip: set[int]) -> list[Pick]:
    c = request.constraints
    if request.neighbours is not None:
        rows = _taste_in_memory(graph, request, request.neighbours, base, skip)
    else:
        rows = graph.read(
        "recommend/by_taste",
            {**base, "seeds": request.taste.seeds(), "damping": DAMPING,
             "topK": TOP_K if c.genres or c.exclude_genres else request.limit + len(skip),
             "limit": request.limit + len(skip)},
        )  # fmt: skip
    rows = [r for r in rows if r["movieId"] not in skip][: request.limit]
    liked = replace(request, taste=Taste(liked=request.taste.liked))
    why = _taste_of(graph, liked, [r["movieId"] for r in rows])
    return [
        Pick(r, "taste", why.get(r["movieId"], {}).get("because", []),
             why.get(r["movieId"], {}).get("seeds", 0))
        for r in rows
    ]  # fmt: skip


def _rating(
    graph: Reader, request: Request, base: dict[str, Any], skip: set[int], wanted: int
) -> list[Pick]:
    c = request.constraints
    params = {**base, "priorMean": PRIOR_MEAN, "priorWeight": PRIOR_WEIGHT}
    if not request.allowed:  # without people a movie needs a few ratings to be ranked by them
        params["minCount"] = max(params["minCount"], MIN_POOL_RATINGS)
    extra = len(skip) + (2 * wanted if request.taste.known else 0)
    if request.neighbours is not None:
        rows = _rating_in_memory(graph, request, request.neighbours, params, skip, wanted + extra)
        return _rating_picks(graph, request, rows, skip, wanted)
    if request.allowed is not None:
        name = "recommend/pool_by_ids"
    elif c.genres and not c.any_genre:
        name, params["genre"] = "recommend/pool_by_genre", c.genres[0]
    else:
        name = "recommend/pool_catalogue"
    params["limit"] = wanted + extra
    checks = bool(c.exclude_genres) or len(c.genres) > (1 if "genre" in params else 0)
    rows = graph.read(name, {**params, "topK": wanted + extra + (POOL_TOP_K if checks else 0)})
    if checks and len(rows) < wanted + extra:  # the cut may have left out movies that pass
        rows = graph.read(name, {**params, "topK": ALL})
    return _rating_picks(graph, request, rows, skip, wanted)


def _rating_picks(
    graph: Reader, request: Request, rows: list[dict[str, Any]], skip: set[int], wanted: int
) -> list[Pick]:
    rows = [r for r in rows if r["movieId"] not in skip]
    taste = _taste_of(graph, request, [r["movieId"] for r in rows])
    if taste:  # in the user's taste first, by it; movies like what they disliked last
        order = {r["movieId"]: i for i, r in enumerate(rows)}

        def key(row: dict[str, Any]) -> tuple[int, float, int]:
            score = taste.get(row["movieId"], {}).get("score", 0.0)
            return (0 if score > 0 else 1 if score == 0 else 2, -score, order[row["movieId"]])

        rows.sort(key=key)
    picks = []
    for row in rows[:wanted]:
        why = taste.get(row["movieId"], {})
        if why.get("score", 0) > 0 and why.get("because"):
            picks.append(Pick(row, "taste", why["because"], why["seeds"]))
        else:
            picks.append(Pick(row, "rating"))
    return picks


def _taste_in_memory(
    graph: Reader, request: Request, neighbours: Neighbours, base: dict[str, Any], skip: set[int]
) -> list[dict[str, Any]]:
    """by_taste's rows, scored in memory: the best candidates as loaded, checked again on the
    graph as it is now (`recommend/taste_picks`)."""
    seeds = request.taste.seeds()
    leave_out = _rated(graph, request) | skip
    picks = neighbours.candidates(neighbours.taste_scores(seeds), base, leave_out, DAMPING)
    wanted = request.limit + len(skip)
    return graph.read(
        "recommend/taste_picks",
        {**base, "picks": picks[: wanted + PICK_MARGIN], "damping": DAMPING, "limit": wanted},
    )


def _rating_in_memory(
    graph: Reader,
    request: Request,
    neighbours: Neighbours,
    params: dict[str, Any],
    skip: set[int],
    limit: int,
) -> list[dict[str, Any]]:
    """The pool's rows, ranked in memory: the best rated as loaded, checked and ranked again on
    the graph as it is now (`recommend/pool_by_ids`)."""
    best = neighbours.best_rated(params, _rated(graph, request) | skip, PRIOR_MEAN, PRIOR_WEIGHT)
    return graph.read(
        "recommend/pool_by_ids",
        {**params, "allowed": best[: limit + PICK_MARGIN], "topK": ALL, "limit": limit},
    )


def _rated(graph: Reader, request: Request) -> set[int]:
    """The movies the user rated, read once per request (its loosenings included)."""
    if "rated" not in request.read_once:
        [row] = graph.read("recommend/rated_ids", {"userId": request.user_id})
        request.read_once["rated"] = set(row["movieIds"])
    rated: set[int] = request.read_once["rated"]
    return rated


def _taste_of(graph: Reader, request: Request, movie_ids: list[int]) -> dict[int, dict[str, Any]]:
    taste = request.taste
    if not taste.known or not movie_ids:
        return {}
    if request.neighbours is not None:
        titles = {r["movieId"]: r["title"] for r in taste.liked}
        return request.neighbours.taste_of(taste.seeds(), titles, movie_ids)
    rows = graph.read("recommend/taste_of", {"seeds": taste.seeds(), "movieIds": movie_ids})
    return {r["movieId"]: r for r in rows}
