"""Which user a tool call acts for, and whether a user id may be served at all.

`--user-id` goes through the project's one user-id policy (`semantic_layer.user_policy`), like
`movieagent chat --user-id`; `user_problem` checks every user named in the tokens file with the
same range rule. The model never names a user (no tool takes a user id).
"""

from __future__ import annotations

from mcp.server.auth.middleware.auth_context import get_access_token

from semantic_layer.errors import UserIdError
from semantic_layer.graph import Graph
from semantic_layer.user_policy import check_range
from semantic_layer.user_ratings import count_ratings
from semantic_layer.users import FIRST_APP_USER_ID


def user_problem(graph: Graph, user_id: int) -> str | None:
    """Why the tokens file may not name `user_id` (a sentence saying what to do), or None.

    The operator who writes the tokens file hands out the ids: a MovieLens user must be in the
    graph (and is served read-only); an id in the application's own range may be new.
    """
    try:
        check_range(user_id)
    except UserIdError as e:
        return str(e)
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
