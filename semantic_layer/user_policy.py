"""Which user a caller may act as: the one rule for `--user-id` on every command.

- No id is a guest, who gets a fresh app id with the first stored rating.
- 0, negative ids, and ids that do not fit a 64-bit integer, are refused.
- A MovieLens user (below `FIRST_APP_USER_ID`) with ratings may be read as a demo: the session is
  read-only, so nothing can be stored or removed under their name, unless `admin`.
- An app id (`FIRST_APP_USER_ID`..`LAST_APP_USER_ID`) must have been handed out already, and must
  not belong to another signed-in person (an account other than `account`), unless `admin`.
- Evaluation runs act as throwaway users on a scratch copy of the graph, one a question, with ids
  from `eval_user_ids` (app ids, so their ratings can be stored).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

from semantic_layer.errors import UserIdError
from semantic_layer.graph import Graph
from semantic_layer.session import GUEST_USER_ID, Session
from semantic_layer.user_ratings import count_ratings
from semantic_layer.users import FIRST_APP_USER_ID, LAST_APP_USER_ID, user_record

MAX_USER_ID = 2**63 - 1  # the largest integer both databases store
LOCAL_ACCOUNT = "local"  # the person at the keyboard of this machine (CLI, `make run`)
_FRESH = "leave out --user-id to start as a new user"
FIRST_EVAL_USER_ID = 900_000_000  # far above MovieLens ids; each question gets the next id


def eval_user_ids(first: int = FIRST_EVAL_USER_ID) -> Iterator[int]:
    """Ids for throwaway evaluation users (on a scratch graph): `first`, `first + 1`, ..."""
    check_range(first)
    if is_movielens_user(first):
        raise UserIdError(f"Evaluation users get app ids (from {FIRST_APP_USER_ID}), not {first}.")
    return itertools.count(first)


def session_for(
    graph: Graph, user_id: int | None, *, account: str = LOCAL_ACCOUNT, admin: bool = False
) -> Session:
    """The session for acting as `user_id`, or `UserIdError` with a sentence saying why not."""
    if user_id is None:
        return Session()
    check_known(graph, user_id)
    if is_movielens_user(user_id):
        return Session(user_id=user_id, read_only=not admin)
    record = user_record(graph, user_id)
    if record is None:
        raise UserIdError(
            f"User {user_id} was never handed out: {_FRESH} (your first rating gives you an "
            "id), or pass the id an earlier conversation gave you."
        )
    owner = record.get("account")
    if owner is not None and owner != account and not admin:
        raise UserIdError(
            f"User {user_id} belongs to a person who signs in to the app: only they can act "
            "as this user."
        )
    return Session(user_id=user_id)


def is_movielens_user(user_id: int) -> bool:
    """A MovieLens user: read as a demo (a read-only session), never written under their name."""
    return user_id < FIRST_APP_USER_ID


def check_known(graph: Graph, user_id: int) -> None:
    """`check_range`, and a MovieLens id must have ratings in the graph (an app id may be new)."""
    check_range(user_id)
    if is_movielens_user(user_id) and count_ratings(graph, user_id) == 0:
        raise UserIdError(
            f"User {user_id} is not in the graph, and ids below {FIRST_APP_USER_ID} belong "
            f"to MovieLens: {_FRESH}, or pass the id an earlier conversation gave you."
        )


def check_range(user_id: int) -> None:
    """Refuse ids no user can have: 0 (the guest's), negative, or too large for the database."""
    if user_id == GUEST_USER_ID:
        raise UserIdError(f"0 is nobody's user id: {_FRESH}.")
    if user_id < 0:
        raise UserIdError(f"User ids are never negative ({user_id}): {_FRESH}.")
    if user_id > MAX_USER_ID:
        raise UserIdError(
            f"User id {user_id} is too large: user ids end at {MAX_USER_ID}; app users get ids "
            f"from {FIRST_APP_USER_ID} to {LAST_APP_USER_ID}."
        )
