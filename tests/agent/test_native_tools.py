"""Native tool calling (`?tools=native`) against a fake vLLM started with a tool parser.

The request carries OpenAI `tools` (each input model's schema and description) and the step's
`tool_choice`; streamed `tool_calls` deltas reach the right tool with the right arguments; plain
content is the answer, streamed; a server without a tool parser gets JSON ReAct, said once.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from agent import Agent, build_llm
from agent.errors import LLMConfigurationError
from agent.events import AnswerToken
from agent.llm.native_tools import NativeReply
from agent.llm.openai_compat import OpenAICompatLLM
from agent.settings import LLMSettings
from tests.agent.fakes import ScriptedTool, final
from tests.agent.tgi_server import ToolCalls, VLLMServer

CHAT = "/v1/chat/completions"


@pytest.fixture
def vllm_server() -> Iterator[VLLMServer]:
    server = VLLMServer().start()
    yield server
    server.stop()


def native_llm(server: VLLMServer) -> OpenAICompatLLM:
    llm = build_llm(LLMSettings.from_env({}, spec=f"openai+{server.url}/v1?tools=native"))
    assert isinstance(llm, OpenAICompatLLM) and llm.tool_mode == "native"
    return llm


def heat_call(arguments: str = '{"entity": "Heat", "entity_type": "movie"}') -> ToolCalls:
    return ToolCalls(calls=(("information", arguments),))


def test_the_request_carries_the_tools_and_no_step_grammar(
    vllm_server: VLLMServer, tools: list[ScriptedTool]
) -> None:
    vllm_server.enqueue(heat_call(), "Michael Mann directed Heat.")
    Agent(native_llm(vllm_server), tools).ask("Who directed Heat?")
    body = vllm_server.posted(CHAT)[0]
    assert "response_format" not in body and body["tool_choice"] == "auto"
    offered = {t["function"]["name"]: t["function"] for t in body["tools"]}
    assert [t["type"] for t in body["tools"]] == ["function", "function"]
    information = offered["information"]
    assert information["description"].startswith("Facts about a movie")
    parameters = information["parameters"]
    assert parameters["required"] == ["entity"]
    assert parameters["properties"]["entity"]["description"] == "A movie title or a person's name."
    assert parameters["properties"]["entity_type"]["enum"] == ["movie", "person"]
    genre = offered["recommender"]["parameters"]["properties"]["genre"]
    assert "$ref" not in json.dumps(genre) and "Comedy" in json.dumps(genre)  # inlined enum


def test_a_streamed_tool_call_runs_the_right_tool(
    vllm_server: VLLMServer, tools: list[ScriptedTool]
) -> None:
    recommender, information = tools
    vllm_server.enqueue(heat_call(), "Michael Mann directed Heat.")
    result = Agent(native_llm(vllm_server), tools).ask("Who directed Heat?")
    assert information.calls == [{"entity": "Heat", "entity_type": "movie"}]
    assert recommender.calls == []
    assert [s.tool for s in result.steps] == ["information"]
    assert result.answer == "Michael Mann directed Heat." and result.stop_reason == "answer"
    second = vllm_server.posted(CHAT)[1]["messages"]
    assert [m["role"] for m in second] == ["user", "assistant", "user"]
    assert json.loads(second[1]["content"])["action"] == "information"  # ReAct history
    assert "Observation" in second[2]["content"]


def test_a_content_reply_is_the_answer_and_streams(
    vllm_server: VLLMServer, tools: list[ScriptedTool]
) -> None:
    vllm_server.enqueue('  Heat (1995) is a crime film, "a classic".')
    events = list(Agent(native_llm(vllm_server), tools).stream("Tell me about Heat"))
    tokens = [e.text for e in events if isinstance(e, AnswerToken)]
    assert len(tokens) > 3  # live, piece by piece
    assert "".join(tokens) == 'Heat (1995) is a crime film, "a classic".'
    assert events[-1].result.answer == 'Heat (1995) is a crime film, "a classic".'


def test_invalid_arguments_go_back_to_the_model(
    vllm_server: VLLMServer, tools: list[ScriptedTool]
) -> None:
    _, information = tools
    vllm_server.enqueue(
        heat_call('{"entity": "Heat", "entity_type": "film"}'), heat_call(), "Michael Mann."
    )
    result = Agent(native_llm(vllm_server), tools).ask("Who directed Heat?")
    assert information.calls == [{"entity": "Heat", "entity_type": "movie"}]
    assert result.answer == "Michael Mann."
    correction = vllm_server.posted(CHAT)[1]["messages"][-1]["content"]
    assert "information" in correction


def test_tool_choice_follows_the_step(vllm_server: VLLMServer, tools: list[ScriptedTool]) -> None:
    vllm_server.enqueue(heat_call(), heat_call('{"entity": "Ronin"}'), "Both are crime films.")
    Agent(native_llm(vllm_server), tools, max_steps=3, tool_first=True).ask("Heat and Ronin?")
    choices = [b["tool_choice"] for b in vllm_server.posted(CHAT)]
    assert choices == ["required", "auto", "none"]


def test_a_server_without_a_tool_parser_gets_react_said_once(
    tools: list[ScriptedTool], caplog: pytest.LogCaptureFixture
) -> None:
    server = VLLMServer(tool_parser=False).start()
    try:
        llm = native_llm(server)
        assert "Native tool calling" in llm.health().unconstrained  # said before the first call
        server.enqueue(final("Ronin."), final("Heat."))
        agent = Agent(llm, tools)
        assert agent.ask("Like Heat?").answer == "Ronin."
        assert agent.ask("And?").answer == "Heat."
        first, second, third = server.posted(CHAT)
        assert "tools" in first and "response_format" not in first
        assert "tools" not in second and second["response_format"]["type"] == "json_schema"
        assert "tools" not in third
        health = llm.health()
        assert health.unconstrained == "" and "--enable-auto-tool-choice" in health.note
        warnings = [r.message for r in caplog.records if r.levelname == "WARNING"]
        assert warnings == [health.note]
    finally:
        server.stop()


def test_react_mode_sends_no_tools(vllm_server: VLLMServer, tools: list[ScriptedTool]) -> None:
    vllm_server.enqueue(final("Ronin."))
    llm = build_llm(LLMSettings.from_env({}, spec=f"openai+{vllm_server.url}/v1?tools=react"))
    assert Agent(llm, tools).ask("Like Heat?").answer == "Ronin."
    assert "tools" not in vllm_server.posted(CHAT)[0]


def test_an_unknown_tool_mode_is_refused() -> None:
    with pytest.raises(LLMConfigurationError, match="tools='xml' is not one of react, native"):
        OpenAICompatLLM("http://127.0.0.1:9/v1?tools=xml")


def test_reply_adapter_keeps_the_first_call_and_react_content() -> None:
    reply = NativeReply()
    deltas = [
        {"tool_calls": [{"index": 0, "function": {"name": "information", "arguments": ""}}]},
        {"tool_calls": [{"index": 1, "function": {"name": "recommender", "arguments": "{}"}}]},
        {"tool_calls": [{"index": 0, "function": {"arguments": '{"entity": "Heat"}'}}]},
    ]
    assert [reply.feed(d) for d in deltas] == ["", "", ""]
    step = json.loads(reply.finish())
    assert step == {"action": "information", "action_input": {"entity": "Heat"}}
    react = NativeReply()
    blob = final("Ronin.")
    assert react.feed({"content": blob}) == blob and react.finish() == ""
