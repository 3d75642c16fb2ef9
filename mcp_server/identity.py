"""Which user a tool call acts for, and whether a user id may be served at all.

`--user-id` goes through the project's one user-id policy (`semantic_layer.user_policy`), like
`movieagent chat --user-id`; `user_problem` checks every user named in the tokens file with the
same rules. The model never names a user (no tool takes a user id).
"""

from __future__ import annotations

from mcp.server.auth.middleware.auth_context import get_access_token

from semantic_layer.errors import UserIdError
from semantic_layer.graph import Graph
from semantic_layer.user_policy import check_known


def user_problem(graph: Graph, user_id: int) -> str | None:
    """Why the tokens file may not name `user_id` (a sentence saying what to do), or None.

    The operator who writes the tokens file hands out the ids: a MovieLens user must be in the
    graph (and is served read-only); an id in the application's own range may be new.
    """
    try:
        check_known(graph, user_id)
    except UserIdError as e:
        return str(e)
    return None


def caller_user_id() -> int | None:
    """The user of the bearer token this HTTP request came with; None without one (stdio)."""
    token = get_access_token()
    return int(token.subject) if token is not None and token.subject else None
