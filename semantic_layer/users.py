"""Application users: fresh ids that never collide with MovieLens users, and their ratings.

MovieLens user ids are small (1..610 in ml-latest-small, about 330,000 in the largest release);
users created here get ids in `[FIRST_APP_USER_ID, LAST_APP_USER_ID]`, so they can never meet.
A signed-in person (an OIDC subject, or the local user of `make run`) is bound to exactly one
app user by its `account` property; see `account_user_id`.
"""

from __future__ import annotations

import time
from typing import Any

from semantic_layer.errors import GraphQueryError
from semantic_layer.graph import Graph

FIRST_APP_USER_ID = 10_000_000
# The last id handed out: the largest integer a browser's JSON keeps exactly (2^53 - 1), far
# below the 64-bit limit of both databases, so `max + 1` can never overflow or wrap around.
LAST_APP_USER_ID = 2**53 - 1
_ATTEMPTS = 3


def new_user_id(graph: Any, account: str | None = None) -> int:
    """Create a user with a fresh id in the app's range and return the id.

    `graph` is a `Graph` or a `TracedGraph` (anything with `write(name, params)`). With
    `account`, the user is bound to it; use `account_user_id` to find or create that user.
    """
    created = _allocate(graph, account)
    if created is None:
        raise GraphQueryError(
            f"No free user id is left between {FIRST_APP_USER_ID} and {LAST_APP_USER_ID}."
        )
    return created


def account_user_id(graph: Any, account: str) -> int:
    """The app user bound to `account` (an OIDC subject or the local user), made on first use."""
    for _ in range(_ATTEMPTS):
        rows = graph.read("memory/account_user", {"account": account})
        if rows:
            return int(rows[0]["userId"])
        created = _allocate(graph, account)
        if created is not None:
            return created
        # nothing created: another session bound this account in the meantime (read it back),
        # or the range is full (the read finds nothing and `new_user_id` says so)
    return new_user_id(graph, account)


def user_record(graph: Graph, user_id: int) -> dict[str, Any] | None:
    """The user's node as `{userId, account}` (account None when unbound); None if absent."""
    rows = graph.read("memory/user", {"userId": user_id})
    return rows[0] if rows else None


def user_ratings(graph: Graph, user_id: int, limit: int = 200) -> list[dict[str, Any]]:
    """The user's ratings, newest first (for a "my ratings" panel)."""
    return graph.read("memory/ratings", {"userId": user_id, "limit": limit})


def forget_rating(graph: Graph, user_id: int, movie_id: int) -> bool:
    """Remove one of the user's ratings; False if there was none."""
    return bool(graph.write("memory/forget", {"userId": user_id, "movieId": movie_id}))


def _allocate(graph: Any, account: str | None) -> int | None:
    """One `memory/new_user` write; None when the account is already bound or the range full."""
    params = {
        "firstId": FIRST_APP_USER_ID,
        "lastId": LAST_APP_USER_ID,
        "account": account,
        "createdAt": int(time.time()),
    }
    for attempt in range(_ATTEMPTS):
        try:
            rows = graph.write("memory/new_user", params)
            return int(rows[0]["userId"]) if rows else None
        except GraphQueryError:  # another session took the same id at the same moment
            if attempt == _ATTEMPTS - 1:
                raise
    raise AssertionError("unreachable")  # pragma: no cover
