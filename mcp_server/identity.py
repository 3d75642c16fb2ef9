"""Which user a tool call acts for, and whether a user id may be served at all.

`user_problem` is the one place the user-id policy is applied, for `--user-id` and for every
user named in the tokens file; the model never names a user (no tool takes a user id).
"""

from __future__ import annotations

from mcp.server.auth.middleware.auth_context import get_access_token

from semantic_layer.graph import Graph
from semantic_layer.user_ratings import count_ratings
from semantic_layer.users import FIRST_APP_USER_ID


def user_problem(graph: Graph, user_id: int) -> str | None:
    """Why `user_id` cannot be served (a sentence saying what to do), or None.

    Like `movieagent chat --user-id`: a MovieLens user must be in the graph; an id in the
    application's own range may be new (its ratings are stored under it).
    """
    if user_id < 1:
        return f"User id {user_id} is not valid: user ids are positive whole numbers."
    if user_id < FIRST_APP_USER_ID and count_ratings(graph, user_id) == 0:
        return (
            f"User {user_id} is not in the graph, and ids below {FIRST_APP_USER_ID} belong to "
            "MovieLens: leave out --user-id to start as a new user, or pass the id an earlier "
            "conversation gave you."
        )
    return None


def caller_user_id() -> int | None:
    """The user of the bearer token this HTTP request came with; None without one (stdio)."""
    token = get_access_token()
    return int(token.subject) if token is not None and token.subject else None
