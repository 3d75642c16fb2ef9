"""A change of user is data in the result: the loop carries it on, the caller switches."""

from __future__ import annotations

from agent import Agent
from semantic_layer.session import Session
from semantic_layer.tools import ToolContext, ToolResult
from tests.agent.fakes import ScriptedLLM, ScriptedTool, call, final, information


def test_a_new_user_is_reported_and_used_for_the_rest_of_the_question() -> None:
    memory = ScriptedTool(
        name="memory",
        description="Stores a rating.",
        results=[ToolResult(tool="memory", kind="rating", message="Stored.", new_user_id=42)],
    )
    info = information()
    llm = ScriptedLLM(call("memory"), call("information", entity="Heat"), final("Done."))
    guest = Session()
    result = Agent(llm, [memory, info]).ask(
        "I loved Heat; who directed it?", (), ToolContext(None, guest)
    )
    assert result.new_user_id == 42
    assert memory.contexts[0].session is guest  # the first call ran as the guest ...
    assert info.contexts[0].session.user_id == 42  # ... the next one as the new user
    assert guest.is_guest  # nothing changed the caller's session


def test_without_a_new_user_the_result_says_none() -> None:
    llm = ScriptedLLM(call("information", entity="Heat"), final("Michael Mann."))
    session = Session(user_id=7)
    result = Agent(llm, [information()]).ask("Who directed Heat?", (), ToolContext(None, session))
    assert result.new_user_id is None
