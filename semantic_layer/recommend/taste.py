"""A user's taste as seeds: what they liked (rated >= 4) and what they disliked (rated <= 2)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from semantic_layer.resolve.reader import Reader

LIKED_SEEDS = 100  # at most this many liked movies feed personal recommendations ...
DISLIKED_SEEDS = 50  # ... and at most this many disliked ones push away from their kind
DISLIKE_WEIGHT = 0.5  # what a dislike weighs against a like as far from 3
RECENT_BOOST = 3.0  # the most recent like weighs 1 + RECENT_BOOST times more, ...
RECENT_HALF_LIFE = 5.0  # ... a bonus that halves with every this many likes back in time


@dataclass(frozen=True)
class Taste:
    liked: list[dict[str, Any]] = field(default_factory=list)  # movieId, title, year, weight,
    # timestamp
    disliked: list[dict[str, Any]] = field(default_factory=list)

    @property
    def known(self) -> bool:
        return bool(self.liked or self.disliked)

    def seeds(self) -> list[list[float]]:
        """[movieId, weight] pairs: likes weigh rating - 3, recent ones more; dislikes weigh
        DISLIKE_WEIGHT x (rating - 3), negative."""
        recent_first = sorted(self.liked, key=lambda r: (r.get("timestamp") or 0, r["movieId"]),
                              reverse=True)  # fmt: skip
        boost = {r["movieId"]: 1 + RECENT_BOOST * 0.5 ** (place / RECENT_HALF_LIFE)
                 for place, r in enumerate(recent_first)}  # fmt: skip
        return [[r["movieId"], r["weight"] * boost[r["movieId"]]] for r in self.liked] + [
            [r["movieId"], DISLIKE_WEIGHT * r["weight"]] for r in self.disliked
        ]


def taste_of_user(graph: Reader, user_id: int) -> Taste:
    rows = graph.read(
        "recommend/taste_seeds",
        {"userId": user_id, "likes": LIKED_SEEDS, "dislikes": DISLIKED_SEEDS},
    )
    return Taste(
        liked=[r for r in rows if r["weight"] > 0], disliked=[r for r in rows if r["weight"] < 0]
    )
