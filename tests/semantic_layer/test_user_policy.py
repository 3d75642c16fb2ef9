"""One user-id policy (`semantic_layer.user_policy`) and the id allocator behind it, on a private
copy of the real graph: each case of issue 11 finding 6, and the read-only demo session."""

from __future__ import annotations

from typing import Any

import pytest

from semantic_layer.errors import ReadOnlySessionError, UserIdError
from semantic_layer.session import Session
from semantic_layer.tools import ToolContext
from semantic_layer.tools.memory import Memory
from semantic_layer.user_policy import (
    FIRST_EVAL_USER_ID,
    LOCAL_ACCOUNT,
    MAX_USER_ID,
    eval_user_ids,
    is_movielens_user,
    session_for,
)
from semantic_layer.user_ratings import count_ratings, remove_rating
from semantic_layer.users import (
    FIRST_APP_USER_ID,
    FIRST_GUEST_USER_ID,
    LAST_APP_USER_ID,
    account_user_id,
    new_user_id,
)

HEAT = 6  # movieId of Heat (1995); user 1 rated it


def _make_user(graph: Any, user_id: int, account: str | None = None) -> None:
    graph.write("test/make_user", {"userId": user_id, "account": account})


@pytest.mark.parametrize("user_id", [0, -5, -1, MAX_USER_ID + 1, 2**64])
def test_negative_and_too_large_ids_are_refused(writable: Any, user_id: int) -> None:
    with pytest.raises(UserIdError) as e:
        session_for(writable, user_id)
    assert str(user_id) in str(e.value)


def test_an_app_id_never_handed_out_is_refused(writable: Any) -> None:
    with pytest.raises(UserIdError, match="never handed out"):
        session_for(writable, FIRST_APP_USER_ID + 4242)
    assert new_user_id(writable) == FIRST_GUEST_USER_ID  # so a later guest never shares it


def test_a_handed_out_app_id_is_taken_and_writable(writable: Any) -> None:
    user = new_user_id(writable)
    session = session_for(writable, user)
    assert session.user_id == user and not session.read_only


def test_another_persons_app_id_needs_the_admin_flag(writable: Any) -> None:
    theirs = account_user_id(writable, "oidc:https://issuer|alice")
    with pytest.raises(UserIdError, match="belongs to a person who signs in"):
        session_for(writable, theirs)
    assert session_for(writable, theirs, account="oidc:https://issuer|alice").user_id == theirs
    assert session_for(writable, theirs, admin=True).user_id == theirs
    mine = account_user_id(writable, LOCAL_ACCOUNT)
    assert session_for(writable, mine).user_id == mine


def test_a_movielens_user_is_a_read_only_demo_unless_admin(writable: Any) -> None:
    before = count_ratings(writable, 1)
    demo = session_for(writable, 1)
    assert demo.read_only
    result = Memory().run({"movie": "Heat", "rating": 1}, ToolContext(writable, demo))
    assert not result.ok
    assert "read-only demo" in result.message and "MovieLens user 1" in result.message
    assert all(q.mode == "read" for q in result.queries)  # nothing was even attempted
    with pytest.raises(ReadOnlySessionError):
        remove_rating(writable, demo, HEAT)
    assert count_ratings(writable, 1) == before

    admin = session_for(writable, 1, admin=True)
    assert Memory().run({"movie": "Heat", "rating": 1}, ToolContext(writable, admin)).ok


def test_a_movielens_id_without_ratings_is_refused(writable: Any) -> None:
    with pytest.raises(UserIdError, match="not in the graph"):
        session_for(writable, 5000)


def test_a_read_only_session_refuses_every_write_of_a_tool(writable: Any) -> None:
    session = Session(user_id=1, read_only=True)
    with pytest.raises(ReadOnlySessionError):
        session.bind(FIRST_APP_USER_ID)
    from semantic_layer.tools.trace import TracedGraph

    traced = TracedGraph(writable, before_write=session.require_writable)
    with pytest.raises(ReadOnlySessionError):
        traced.write("memory/forget", {"userId": 1, "movieId": HEAT})
    assert count_ratings(writable, 1) > 0


def test_new_ids_neither_overflow_nor_collide_after_a_huge_id(writable: Any) -> None:
    _make_user(writable, MAX_USER_ID)  # what `--user-id 9223372036854775807` made before
    _make_user(writable, -(2**63))
    first = new_user_id(writable)
    second = new_user_id(writable)
    assert (first, second) == (FIRST_GUEST_USER_ID, FIRST_GUEST_USER_ID + 1)


def test_a_full_app_range_is_a_sentence_not_a_wrapped_id(writable: Any) -> None:
    _make_user(writable, LAST_APP_USER_ID)
    with pytest.raises(Exception, match="No free user id"):
        new_user_id(writable)


def test_each_account_is_bound_to_exactly_one_user(writable: Any) -> None:
    alice = account_user_id(writable, "oidc:https://issuer|alice")
    bob = account_user_id(writable, "oidc:https://issuer|bob")
    assert alice != bob
    assert account_user_id(writable, "oidc:https://issuer|alice") == alice
    assert FIRST_APP_USER_ID <= alice <= LAST_APP_USER_ID
    guest = new_user_id(writable)  # a guest's id is bound to nobody, and is a new one
    assert guest not in (alice, bob)


def test_evaluation_users_are_app_users_one_a_question() -> None:
    ids = eval_user_ids()
    assert [next(ids) for _ in range(3)] == [FIRST_EVAL_USER_ID + i for i in range(3)]
    assert not is_movielens_user(FIRST_EVAL_USER_ID)
    assert FIRST_EVAL_USER_ID <= LAST_APP_USER_ID
    with pytest.raises(UserIdError, match="app ids"):
        eval_user_ids(5)  # a MovieLens user's id
    with pytest.raises(UserIdError):
        eval_user_ids(0)
