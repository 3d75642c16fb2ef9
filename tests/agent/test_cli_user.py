"""Who is asking on the command line: a guest becomes a user with the first stored rating, and
`--user-id` follows `semantic_layer.user_policy` (a MovieLens user is a read-only demo, an app
id must have been handed out and not be a signed-in person's); never the model.

A scripted model drives the real tools (the real Memory tool) on a private copy of the real graph.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from typer.testing import CliRunner, Result

import agent.cli
from agent.settings import LLMSettings
from movieagent.cli import app
from semantic_layer.user_ratings import count_ratings, list_ratings
from semantic_layer.users import (
    FIRST_APP_USER_ID,
    FIRST_GUEST_USER_ID,
    account_user_id,
    new_user_id,
)
from tests.agent.fakes import ScriptedLLM, call, final

NOTICE = re.compile(r"You are now user (\d+); pass --user-id \1 to keep your ratings\.")


@pytest.fixture
def llm(monkeypatch: pytest.MonkeyPatch, writable_graph: Any) -> ScriptedLLM:
    """The CLI's own wiring, with a scripted model and a private copy of the real graph."""
    scripted = ScriptedLLM(context=8192)  # a served model's window, as TGI and vLLM state it

    @contextmanager
    def services(spec: str | None) -> Iterator[tuple[LLMSettings, ScriptedLLM, Any]]:
        yield LLMSettings(kind="openai", url="http://scripted.invalid/v1"), scripted, writable_graph

    monkeypatch.setattr(agent.cli, "_services", services)
    return scripted


def run(*args: str, input: str | None = None) -> Result:
    result = CliRunner().invoke(app, list(args), input=input)
    assert "Traceback" not in result.output
    return result


def test_a_guest_in_chat_becomes_a_user_and_stays_one(
    llm: ScriptedLLM, writable_graph: Any
) -> None:
    llm.enqueue(
        call("memory", movie="Toy Story", rating=5),  # a stored rating is its own answer
        call("memory", movie="Forrest Gump", rating=4),
        call("recommender"),
        final("You might like these."),
    )
    result = run("chat", input="I loved Toy Story\nForrest Gump was good\nWhat else?\n")
    assert result.exit_code == 0, result.output
    assert "you are a guest" in result.stderr
    ids = NOTICE.findall(result.stderr)
    assert len(ids) == 1  # told once, on the first stored rating
    user = int(ids[0])
    assert user >= FIRST_APP_USER_ID
    assert result.stderr.index("You are now user") < result.stderr.index(
        'memory {"movie": "Forrest'
    )
    # the second rating went to the same user: the session kept the id for the conversation
    titles = {r.title for r in list_ratings(writable_graph, user)}
    assert titles == {"Toy Story", "Forrest Gump"}
    assert count_ratings(writable_graph, user + 1) == 0  # no second user was made
    # and the recommender read that user's ratings, and left out the movies already rated
    assert "You might like these." in result.stdout
    assert "Stored 5/5 for Toy Story (1995)." in result.stdout
    assert len(llm.requests) == 4
    observation = llm.requests[3].messages[-1].content
    assert "movies the user has not rated, in their taste" in observation
    # each pick's reason names the first of the user's liked movies behind it
    assert re.search(r"because you liked (Toy Story|Forrest Gump)", observation)
    assert '"title": "Toy Story"' not in observation
    assert '"title": "Forrest Gump"' not in observation


def test_ask_as_a_guest_prints_the_new_id_and_reports_it(
    llm: ScriptedLLM, writable_graph: Any
) -> None:
    llm.enqueue(call("memory", movie="Heat", rating=4))
    result = run("ask", "Heat was good, 4 stars", "--json")
    assert result.exit_code == 0, result.output
    (user,) = map(int, NOTICE.findall(result.stderr))
    report = json.loads(result.stdout)
    assert report["user_id"] == user
    assert report["steps"][0]["input"] == {"movie": "Heat", "rating": 4}
    assert [r.title for r in list_ratings(writable_graph, user)] == ["Heat"]


def test_a_question_that_stores_nothing_keeps_the_guest(llm: ScriptedLLM) -> None:
    llm.enqueue(final("Hello! Ask me about movies."))
    result = run("ask", "hi")
    assert result.exit_code == 0, result.output
    assert not NOTICE.search(result.stderr)


def test_a_movielens_user_is_a_read_only_demo(llm: ScriptedLLM, writable_graph: Any) -> None:
    before = {r.title: r.rating for r in list_ratings(writable_graph, 1, limit=1000)}
    assert before["Heat"] != 1
    llm.enqueue(call("memory", movie="Heat", rating=1), final("I could not store that."))
    result = run("ask", "I did not like Heat", "--user-id", "1")
    assert result.exit_code == 0, result.output
    words = " ".join(result.stderr.split())
    assert "MovieLens user 1 is a read-only demo" in words
    observation = llm.requests[1].messages[-1].content
    assert "read-only demo" in observation  # the Memory tool refused, with a sentence
    after = {r.title: r.rating for r in list_ratings(writable_graph, 1, limit=1000)}
    assert after == before


def test_as_admin_writes_as_a_movielens_user(llm: ScriptedLLM, writable_graph: Any) -> None:
    llm.enqueue(call("memory", movie="Heat", rating=1))
    result = run("ask", "I did not like Heat", "--user-id", "1", "--as-admin")
    assert result.exit_code == 0, result.output
    ratings = {r.title: r.rating for r in list_ratings(writable_graph, 1, limit=1000)}
    assert ratings["Heat"] == 1


def test_an_id_handed_out_earlier_is_taken_and_said_to_be_empty(
    llm: ScriptedLLM, writable_graph: Any
) -> None:
    user = new_user_id(writable_graph)
    llm.enqueue(call("memory", movie="Heat", rating=5))
    result = run("ask", "Heat: 5 stars", "--user-id", str(user))
    assert result.exit_code == 0, result.output
    words = " ".join(result.stderr.split())
    assert f"User {user} has no ratings yet" in words
    assert not NOTICE.search(result.stderr)
    assert [r.title for r in list_ratings(writable_graph, user)] == ["Heat"]


@pytest.mark.parametrize(
    ("user_id", "words"),
    [
        ("-5", "never negative"),
        ("9223372036854775808", "too large"),
        (str(FIRST_APP_USER_ID + 4242), "never handed out"),
    ],
)
def test_impossible_and_unallocated_ids_are_refused(
    llm: ScriptedLLM, writable_graph: Any, user_id: str, words: str
) -> None:
    result = run("ask", "Heat: 5 stars", "--user-id", user_id)
    assert result.exit_code == 2, result.output
    assert words in " ".join(result.stderr.split())
    assert llm.requests == []
    assert new_user_id(writable_graph) == FIRST_GUEST_USER_ID  # no id was taken or aliased


def test_a_signed_in_persons_id_is_refused_without_the_admin_flag(
    llm: ScriptedLLM, writable_graph: Any
) -> None:
    theirs = account_user_id(writable_graph, "oidc:https://issuer|alice")
    result = run("chat", "--user-id", str(theirs), input="")
    assert result.exit_code == 2
    assert "belongs to a person who signs in" in " ".join(result.stderr.split())
    assert run("chat", "--user-id", str(theirs), "--as-admin", input="").exit_code == 0


def test_an_unknown_id_in_the_movielens_range_is_refused(
    llm: ScriptedLLM, writable_graph: Any
) -> None:
    result = run("ask", "Heat: 5 stars", "--user-id", "5000")
    assert result.exit_code == 2
    words = " ".join(result.stderr.split())
    assert "User 5000 is not in the graph" in words
    assert "leave out --user-id" in words
    assert llm.requests == []  # the model was never asked
    assert count_ratings(writable_graph, 5000) == 0
