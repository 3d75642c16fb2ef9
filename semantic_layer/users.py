"""Application users: fresh ids that never collide with MovieLens users, and their ratings.

MovieLens user ids are small (1..610 in ml-latest-small, about 330,000 in the largest release);
users created here get ids from `FIRST_APP_USER_ID` up, so they can never meet.
"""

from __future__ import annotations

import time
from typing import Any

from semantic_layer.errors import GraphQueryError
from semantic_layer.graph import Graph

FIRST_APP_USER_ID = 10_000_000
_ATTEMPTS = 3


def new_user_id(graph: Any) -> int:
    """Create a user with a fresh id in the reserved range and return the id.

    `graph` is a `Graph` or a `TracedGraph` (anything with `write(name, params)`).
    """
    for attempt in range(_ATTEMPTS):
        try:
            rows = graph.write(
                "memory/new_user",
                {"firstId": FIRST_APP_USER_ID, "createdAt": int(time.time())},
            )
            return int(rows[0]["userId"])
        except GraphQueryError:  # another session took the same id at the same moment
            if attempt == _ATTEMPTS - 1:
                raise
    raise AssertionError("unreachable")  # pragma: no cover


def user_ratings(graph: Graph, user_id: int, limit: int = 200) -> list[dict[str, Any]]:
    """The user's ratings, newest first (for a "my ratings" panel)."""
    return graph.read("memory/ratings", {"userId": user_id, "limit": limit})


def forget_rating(graph: Graph, user_id: int, movie_id: int) -> bool:
    """Remove one of the user's ratings; False if there was none."""
    return bool(graph.write("memory/forget", {"userId": user_id, "movieId": movie_id}))
