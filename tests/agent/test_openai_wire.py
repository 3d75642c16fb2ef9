"""The OpenAI-compatible backend on the wire, against the same server's Messages API."""

from __future__ import annotations

import pytest

from agent import Agent, build_llm
from agent.errors import LLMUnavailableError
from agent.llm.base import ChatMessage, LLMRequest
from agent.llm.openai_compat import OpenAICompatLLM
from agent.settings import LLMSettings
from tests.agent.fakes import ScriptedTool, call, final
from tests.agent.tgi_server import MODEL_ID, TGIServer


def test_tool_question_with_response_format(
    tgi_server: TGIServer, tools: list[ScriptedTool]
) -> None:
    llm = build_llm(LLMSettings.from_env({}, spec=f"openai+{tgi_server.url}/v1"))
    assert isinstance(llm, OpenAICompatLLM)
    tgi_server.enqueue(call("information", entity="Heat"), final("Michael Mann."))
    result = Agent(llm, tools).ask("Who directed Heat?")
    assert result.answer == "Michael Mann."
    posted = tgi_server.posted("/v1/chat/completions")
    assert len(posted) == 2
    body = posted[0]
    assert body["model"] == MODEL_ID  # discovered from /v1/models
    assert body["response_format"]["type"] == "json_schema"
    assert "anyOf" in body["response_format"]["json_schema"]["schema"]
    assert [m["role"] for m in posted[1]["messages"]] == ["user", "assistant", "user"]
    assert result.llm_calls[0].prompt_tokens > 0 and not result.llm_calls[0].estimated_tokens


def test_rejected_response_format_is_dropped(
    tgi_server: TGIServer, tools: list[ScriptedTool]
) -> None:
    llm = OpenAICompatLLM(f"{tgi_server.url}/v1", model="m")
    tgi_server.enqueue(400, "Final Answer: Michael Mann.")
    result = Agent(llm, tools).ask("Who directed Heat?")
    assert result.answer == "Michael Mann."
    first, second = tgi_server.posted("/v1/chat/completions")
    assert "response_format" in first and "response_format" not in second


def test_connection_refused_says_what_to_start(closed_port_url: str) -> None:
    llm = OpenAICompatLLM(f"{closed_port_url}/v1", model="m")
    request = LLMRequest(messages=[ChatMessage(role="user", content="hi")])
    with pytest.raises(LLMUnavailableError, match="OpenAI-compatible server"):
        list(llm.stream(request))
