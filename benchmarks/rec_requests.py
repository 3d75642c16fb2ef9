"""Random recommender requests over a graph's own movies, people and users (the constraint
benchmark checks them, the latency benchmark times them)."""

from __future__ import annotations

import random
from typing import Any

from semantic_layer.session import GUEST_USER_ID
from semantic_layer.tools.genre import Genre

DECADES = tuple(range(1930, 2020, 10))


def draw(rng: random.Random, pools: dict[str, list[Any]]) -> tuple[int, dict[str, Any]]:
    """A user and random recommender arguments."""
    user = rng.choice([GUEST_USER_ID, *pools["users"]])
    args: dict[str, Any] = {}
    if pools["movies"] and rng.random() < 0.35:
        args["movies"] = rng.sample(pools["movies"], rng.choice((1, 1, 2)))
    genres = [g.value for g in Genre]
    if rng.random() < 0.6:
        args["genres"] = rng.sample(genres, rng.choice((1, 1, 2)))
    if rng.random() < 0.3:
        args["exclude_genres"] = [rng.choice([g for g in genres
                                              if g not in args.get("genres", [])])]  # fmt: skip
    if pools["people"] and rng.random() < 0.25:
        args["people"] = [rng.choice(pools["people"])]
    shape = rng.random()
    if shape < 0.3:
        decade = rng.choice(DECADES)
        args["year_from"], args["year_to"] = decade, decade + 9
    elif shape < 0.4:
        start = rng.randrange(1940, 2015)
        args["year_from"], args["year_to"] = start, start + rng.randrange(0, 20)
    elif shape < 0.5:
        args["year_from" if rng.random() < 0.5 else "year_to"] = rng.randrange(1950, 2015)
    args["popularity"] = rng.choice(("any", "any", "well_known", "hidden_gems"))
    args["limit"] = rng.choice((5, 10, 10, 20))
    return user, args
