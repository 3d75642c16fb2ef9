"""`movieagent ask` and `movieagent chat`, with a scripted model and scripted tools."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from typer.testing import CliRunner

import agent.cli
from agent import Agent
from agent.cli import Conversation
from semantic_layer.session import Session
from tests.agent.fakes import FlakyLLM, ScriptedLLM, call, final, information, recommender


@pytest.fixture
def scripted(monkeypatch: pytest.MonkeyPatch) -> ScriptedLLM:
    llm = ScriptedLLM()

    @contextmanager
    def fake(
        spec: str | None, user_id: int | None, max_steps: int, admin: bool = False
    ) -> Iterator[Conversation]:
        agent = Agent(llm, [recommender(), information()], max_steps=max_steps)
        yield Conversation(agent, Session())

    monkeypatch.setattr(agent.cli, "_conversation", fake)
    return llm


def app():  # type: ignore[no-untyped-def]
    from movieagent.cli import app

    return app


def test_ask_json(scripted: ScriptedLLM) -> None:
    scripted.enqueue(call("information", entity="Heat"), final("Michael Mann."))
    result = CliRunner().invoke(app(), ["ask", "Who directed Heat?", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["answer"] == "Michael Mann."
    assert report["user_id"] is None  # a guest who stored nothing
    assert report["llm_calls"] == 2
    assert report["steps"][0]["tool"] == "information"
    assert report["steps"][0]["input"] == {"entity": "Heat"}
    assert report["steps"][0]["queries"][0]["cypher"].startswith("MATCH")
    assert report["tokens"]["prompt"] == 200
    assert set(report["timings"]) == {"total_ms", "llm_ms", "tool_ms", "overhead_ms"}


def test_ask_streams_the_answer(scripted: ScriptedLLM) -> None:
    scripted.enqueue(final("Michael Mann."))
    result = CliRunner().invoke(app(), ["ask", "Who directed Heat?"])
    assert result.exit_code == 0
    assert result.stdout.strip() == "Michael Mann."


def test_ask_says_why_the_model_is_asked_again(monkeypatch: pytest.MonkeyPatch) -> None:
    llm = FlakyLLM(1, final("Michael Mann."))

    @contextmanager
    def fake(
        spec: str | None, user_id: int | None, max_steps: int, admin: bool = False
    ) -> Iterator[Conversation]:
        agent = Agent(llm, [information()], max_steps=max_steps, sleep=lambda s: None)
        yield Conversation(agent, Session())

    monkeypatch.setattr(agent.cli, "_conversation", fake)
    result = CliRunner().invoke(app(), ["ask", "Who directed Heat?"])
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == "Michael Mann."
    notes = " ".join(result.stderr.split())
    assert "the model failed (HTTP 503); trying again in" in notes


def test_chat_keeps_history(scripted: ScriptedLLM) -> None:
    scripted.enqueue(final("Heat (1995) is a crime film."), final("Michael Mann."))
    result = CliRunner().invoke(app(), ["chat"], input="Tell me about Heat\nwho directed it?\n")
    assert result.exit_code == 0
    assert "Michael Mann." in result.stdout
    second = scripted.requests[1].messages
    assert [m.role for m in second] == ["user"]
    assert "User: Tell me about Heat\nYou: Heat (1995) is a crime film." in second[0].content
