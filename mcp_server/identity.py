"""Which user a tool call acts for, and which users the server may act for at all.

`--user-id` goes through the project's one user-id policy (`semantic_layer.user_policy`), like
`movieagent chat --user-id`; `reserve` checks every user named in the tokens file by the same
rules (its sentences say what to write in the file) and reserves each app id in the graph (`semantic_layer.users.reserve_user_id`), so the
allocator never hands a token holder's id to a guest, and an import keeps it. The model never
names a user (no tool takes a user id).
"""

from __future__ import annotations

from collections.abc import Iterable

from mcp.server.auth.middleware.auth_context import get_access_token

from semantic_layer.errors import UserIdError
from semantic_layer.graph import Graph
from semantic_layer.user_policy import check_range, is_movielens_user
from semantic_layer.user_ratings import count_ratings
from semantic_layer.users import FIRST_APP_USER_ID, FIRST_GUEST_USER_ID, reserve_user_id

TOKEN_HOLDER = "mcp-token"  # `reservedFor` of the users a tokens file names
LOCAL_HOLDER = "mcp-user-id"  # `reservedFor` of an operator's id passed as `--user-id`
OPERATOR_IDS = f"{FIRST_APP_USER_ID}-{FIRST_GUEST_USER_ID - 1}"


def user_problem(graph: Graph, user_id: int) -> str | None:
    """Why a tokens file may not name `user_id` (what to write there instead), or None.

    The operator who writes the tokens file hands out the ids: a MovieLens user must be in the
    graph (and is served read-only); an app id may be new, but not one that a person who signs
    in to the app already has (two people would act as one).
    """
    instead = (
        f"give the token an id from {OPERATOR_IDS} (ids no guest or login ever receives), or "
        "a MovieLens user with ratings (served read-only)"
    )
    try:
        check_range(user_id)
    except UserIdError:
        return f"{user_id} is no user id: {instead}."
    if is_movielens_user(user_id):
        if count_ratings(graph, user_id) == 0:
            return (
                f"user {user_id} is not in the graph (ids below {FIRST_APP_USER_ID} are "
                f"MovieLens users'): {instead}."
            )
        return None
    rows = graph.read("memory/user", {"userId": user_id})
    if rows and rows[0]["account"] is not None:
        return (
            f"user {user_id} belongs to a person who signs in to the app, and a token for it "
            f"would make two people one: {instead}."
        )
    return None


def reserve(graph: Graph, tokens_file: object, user_ids: Iterable[int]) -> str | None:
    """Check the users `tokens_file` names and reserve their app ids; the first problem (a
    sentence naming the file), or None."""
    wanted = sorted(set(user_ids))
    for user_id in wanted:
        if problem := user_problem(graph, user_id):
            return f"The tokens file {tokens_file} names {problem}"
    for user_id in wanted:
        if not is_movielens_user(user_id):
            reserve_user_id(graph, user_id, TOKEN_HOLDER)
    return None


def operator_user(graph: Graph, user_id: int | None) -> None:
    """`--user-id` from the operator's range is the operator's to give: reserved on first use
    (like a token's), so that the id in an example works on a new data folder too."""
    if user_id is None or not FIRST_APP_USER_ID <= user_id < FIRST_GUEST_USER_ID:
        return
    if not graph.read("memory/user", {"userId": user_id}):
        reserve_user_id(graph, user_id, LOCAL_HOLDER)


def caller_user_id() -> int | None:
    """The user of the bearer token this HTTP request came with; None without one (stdio)."""
    token = get_access_token()
    return int(token.subject) if token is not None and token.subject else None
