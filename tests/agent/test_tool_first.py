"""`tool_first`: the first step's grammar admits only a tool call, so even a small model answers
from what the graph returned; later steps may answer."""

from __future__ import annotations

import pytest

from agent.errors import LLMConfigurationError
from agent.grammar import FINAL_ANSWER, step_schema
from agent.loop import Agent
from agent.settings import LLMSettings
from tests.agent.fakes import ScriptedLLM, ScriptedTool, call, final


def _actions(schema: dict) -> list[str]:
    return [b["properties"]["action"]["const"] for b in schema["anyOf"]]


def test_tools_only_schema_has_no_final_answer(tools: list[ScriptedTool]) -> None:
    schema = step_schema(tools, tools_only=True)
    assert FINAL_ANSWER not in schema["properties"]["action"]["enum"]
    assert _actions(schema) == [t.name for t in tools]
    assert FINAL_ANSWER in step_schema(tools)["properties"]["action"]["enum"]


def test_first_step_must_call_a_tool_then_the_model_may_answer(
    tools: list[ScriptedTool],
) -> None:
    llm = ScriptedLLM(call("recommender", movie="Heat"), final("Try Ronin."))
    result = Agent(llm, tools, tool_first=True).ask("something like Heat")
    first, second = (r.json_schema for r in llm.requests)
    assert first is not None and second is not None
    assert FINAL_ANSWER not in first["properties"]["action"]["enum"]
    assert FINAL_ANSWER in second["properties"]["action"]["enum"]
    assert [s.tool for s in result.steps] == ["recommender"] and result.answer == "Try Ronin."


def test_without_tool_first_the_first_step_may_answer(tools: list[ScriptedTool]) -> None:
    llm = ScriptedLLM(final("Hello!"))
    Agent(llm, tools).ask("hi")
    schema = llm.requests[0].json_schema
    assert schema is not None and FINAL_ANSWER in schema["properties"]["action"]["enum"]


def test_a_single_step_agent_keeps_its_final_answer(tools: list[ScriptedTool]) -> None:
    llm = ScriptedLLM(final("Hello!"))
    assert Agent(llm, tools, max_steps=1, tool_first=True).ask("hi").answer == "Hello!"


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        ({"MOVIEAGENT_LLM": "llamacpp"}, False),  # opt-in: see docs/agent.md, constrained decoding
        ({"MOVIEAGENT_LLM": "llamacpp", "MOVIEAGENT_TOOL_FIRST": "1"}, True),
        ({"MOVIEAGENT_LLM": "tgi+http://tgi:80"}, False),
        ({"MOVIEAGENT_LLM": "tgi+http://tgi:80", "MOVIEAGENT_TOOL_FIRST": "yes"}, True),
    ],
)
def test_tool_first_setting(env: dict[str, str], expected: bool) -> None:
    assert LLMSettings.from_env(env).tool_first is expected


def test_a_bad_tool_first_value_is_a_sentence() -> None:
    with pytest.raises(LLMConfigurationError, match="MOVIEAGENT_TOOL_FIRST"):
        LLMSettings.from_env({"MOVIEAGENT_TOOL_FIRST": "maybe"})
