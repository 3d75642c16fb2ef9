"""Application users: the one allocator of user ids, and the users' ratings.

MovieLens user ids are small (1..610 in ml-latest-small, about 330,000 in the largest release);
application users have ids in `[FIRST_APP_USER_ID, LAST_APP_USER_ID]`, so they can never meet.
Inside that range:

- `[FIRST_APP_USER_ID, FIRST_GUEST_USER_ID)` is the operator's: ids given by hand (a tokens
  file of the MCP server, `--user-id` in an example). The allocator never hands them out.
- From `FIRST_GUEST_USER_ID` up, `new_user_id` hands out one more than the highest id taken, so
  an id is never handed out twice; an id the operator gives there is reserved first
  (`reserve_user_id`: a User node, kept by an import like every app user), and is skipped.

A signed-in person (an OIDC subject, or the local user of `make run`) is bound to exactly one
app user by its `account` property; see `account_user_id`.
"""

from __future__ import annotations

import time
from typing import Any

from semantic_layer.errors import GraphQueryError
from semantic_layer.graph import Graph

FIRST_APP_USER_ID = 10_000_000
# The first id a guest or a login can receive; the ids below it are the operator's to give.
FIRST_GUEST_USER_ID = 10_001_000
# The last id handed out: the largest integer a browser's JSON keeps exactly (2^53 - 1), far
# below the 64-bit limit of both databases, so `max + 1` can never overflow or wrap around.
LAST_APP_USER_ID = 2**53 - 1
_ATTEMPTS = 3


def new_user_id(graph: Any, account: str | None = None) -> int:
    """Create a user with a fresh id in the guests' range and return the id.

    `graph` is a `Graph` or a `TracedGraph` (anything with `write(name, params)`). With
    `account`, the user is bound to it; use `account_user_id` to find or create that user.
    """
    created = _allocate(graph, account)
    if created is None:
        raise GraphQueryError(
            f"No free user id is left between {FIRST_GUEST_USER_ID} and {LAST_APP_USER_ID}."
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


def reserve_user_id(graph: Any, user_id: int, holder: str) -> dict[str, Any]:
    """Make sure app user `user_id` exists, marked as given to `holder` (e.g. "mcp-token"), so
    that `new_user_id` never hands it to anyone else; its `{userId, account, reservedFor}`.

    An existing user keeps its account and its first holder (the caller decides whether an id
    bound to a signed-in person may be given: see `mcp_server.identity.user_problem`).
    """
    if not FIRST_APP_USER_ID <= user_id <= LAST_APP_USER_ID:
        raise ValueError(f"Only app ids can be reserved, not {user_id}.")
    params = dict(userId=user_id, holder=holder, createdAt=int(time.time()))
    return dict(graph.write("memory/reserve_user", params)[0])


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
        "firstId": FIRST_GUEST_USER_ID,
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
