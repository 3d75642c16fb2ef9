"""Follow-ups: the history carries what the last turn resolved, and the next prompt names it."""

from __future__ import annotations

from agent.cli import Conversation
from agent.loop import Agent
from agent.prompt import ReactPrompt, remembered_answer, split_remembered
from semantic_layer.session import Session
from semantic_layer.tools.result import ToolResult
from tests.agent.fakes import ScriptedLLM, ScriptedTool, call, casino_candidates, final


def heat_facts() -> ToolResult:
    data = {"movieId": 6, "title": "Heat", "year": 1995, "directors": ["Michael Mann"]}
    return ToolResult(tool="information", kind="movie", message="Heat (1995).", data=data)


def test_a_turn_keeps_what_its_tools_resolved(tools: list[ScriptedTool]) -> None:
    tools[1].results.append(heat_facts())
    llm = ScriptedLLM(call("information", entity="Heat"), final("Michael Mann."))
    assert Agent(llm, tools).ask("Who directed Heat?").entities == ["Heat (1995)"]


def test_candidates_are_remembered_as_the_choice(tools: list[ScriptedTool]) -> None:
    tools[1].results.append(casino_candidates())
    llm = ScriptedLLM(call("information", entity="Casino"), final("Which one?"))
    result = Agent(llm, tools).ask("Casino?")
    assert result.entities == ["Casino (1995) or Casino Royale (2006)"]


def test_remembered_answers_round_trip() -> None:
    text = remembered_answer("It was Michael Mann.", ["Heat (1995)", "Michael Mann"])
    assert split_remembered(text) == ("It was Michael Mann.", ["Heat (1995)", "Michael Mann"])
    assert split_remembered("Plain [answer]") == ("Plain [answer]", [])
    assert remembered_answer("No tools.", []) == "No tools."


def test_the_follow_up_prompt_names_the_last_turns_movie(tools: list[ScriptedTool]) -> None:
    """In `movieagent chat`: the answer does not say "Heat", the follow-up still resolves it."""
    tools[1].results.append(heat_facts())
    llm = ScriptedLLM(
        call("information", entity="Heat"),
        final("It was directed by Michael Mann."),
        call("information", entity="Heat"),
        final("Al Pacino and Robert De Niro."),
    )
    conversation = Conversation(Agent(llm, tools), Session())
    conversation.ask("Who directed Heat?", stream_answer=False)
    conversation.ask("Who stars in it?", stream_answer=False)
    (follow_up,) = llm.requests[2].messages
    text = follow_up.content
    assert text.endswith(
        "You: It was directed by Michael Mann.\n\n"
        "The conversation so far is about: Heat (1995).\nQuestion: Who stars in it?"
    )
    assert "[about:" not in text  # the answer itself is shown clean


def test_the_latest_resolved_entities_survive_a_chat_turn(tools: list[ScriptedTool]) -> None:
    history = [
        {"role": "user", "content": "Who directed Heat?"},
        {"role": "assistant", "content": remembered_answer("Michael Mann.", ["Heat (1995)"])},
        {"role": "user", "content": "Hello"},
        {"role": "assistant", "content": "Hi! Ask me about movies."},
    ]
    from agent.prompt import normalize_history

    messages = ReactPrompt(tools).messages("Who stars in it?", normalize_history(history))
    assert "The conversation so far is about: Heat (1995).\nQuestion:" in messages[-1].content
