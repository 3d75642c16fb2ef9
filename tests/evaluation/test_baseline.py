"""The LangChain react-json baseline runs on the scripted model; malformed output is measured."""

from __future__ import annotations

import json

import pytest

from evaluation.metrics import evaluate
from evaluation.questions import Question
from evaluation.runner import run_set
from semantic_layer.tools import ToolContext
from tests.agent.fakes import ScriptedLLM, information, recommender

pytest.importorskip("langchain_classic")

from evaluation.baseline import BaselineSubject, to_chat_messages


def _action(tool: str, **args: str) -> str:
    blob = json.dumps({"action": tool, "action_input": args})
    return f"Thought: I should look it up.\nAction:\n```\n{blob}\n```"


def test_baseline_runs_and_its_parse_failures_are_measured(tiny_set: list[Question]) -> None:
    llm = ScriptedLLM(
        _action("information", entity="Heat"),
        "Thought: I now know the final answer\nFinal Answer: Heat was directed by Michael Mann.",
        _action("recommender", movie="The Matrix"),
        "Thought: done\nFinal Answer: Try Dark City.",
        "I would recommend a comedy, maybe.",  # neither a JSON blob nor a Final Answer
        '```\n{"action": "information", "action_input": {"entity": "Casino"}}\n```',
        "Casino is by Martin Scorsese.",  # prose again: the plain parser gives up
        "Final Answer: Hello!",
    )
    tools = [recommender(), information()]
    outcomes = run_set(BaselineSubject(llm), tiny_set, tools, lambda s: ToolContext(session=s))
    assert [o.ending for o in outcomes] == [
        "answer",
        "answer",
        "parse_error",
        "parse_error",
        "answer",
    ]
    assert [o.llm_calls for o in outcomes] == [2, 2, 1, 2, 1]
    assert outcomes[0].tools[0].tool == "information"
    assert outcomes[0].tools[0].input["entity"] == "Heat"
    assert outcomes[0].answer == "Heat was directed by Michael Mann."
    overall = evaluate(tiny_set, outcomes)["overall"]
    assert overall.parse_failures == 2
    assert overall.tool_accuracy == pytest.approx(4 / 5)  # q3: no tool; q4 called information
    assert overall.argument_accuracy == pytest.approx(3 / 4)
    assert overall.facts_rate == pytest.approx(1 / 2)
    # the plain agent's prompt: no grammar, stop at Observation, system text in the first user turn
    first = llm.requests[0]
    assert first.json_schema is None
    assert first.stop == ["\nObservation"]
    assert first.messages[0].role == "user"
    assert first.messages[0].content.startswith("Answer the following questions")
    assert "Who directed Heat?" in first.messages[0].content
    # the Observation reaches the second call as text in the scratchpad
    assert "Observation: " in llm.requests[1].messages[-1].content


def test_chat_history_becomes_alternating_turns() -> None:
    from langchain_core.messages import AIMessage, HumanMessage, SystemMessage

    turns = to_chat_messages(
        [
            SystemMessage(content="rules"),
            HumanMessage(content="Who directed Heat?"),
            AIMessage(content="Michael Mann."),
            HumanMessage(content="And the cast?"),
            HumanMessage(content="scratchpad"),
        ]
    )
    assert [t.role for t in turns] == ["user", "assistant", "user"]
    assert turns[0].content == "rules\n\nWho directed Heat?"
    assert turns[2].content == "And the cast?\n\nscratchpad"
