"""The TGI backend on the wire, against a server that speaks TGI's documented API."""

from __future__ import annotations

import pytest

from agent import Agent, AnswerToken, LLMCallEvent, build_llm
from agent.errors import LLMUnavailableError
from agent.llm.base import ChatMessage, LLMRequest
from agent.llm.tgi import TGILLM
from agent.settings import LLMSettings
from tests.agent.fakes import ScriptedTool, call, final
from tests.agent.tgi_server import MODEL_ID, TGIServer

pytestmark = pytest.mark.usefixtures("hub_online")


def tgi_agent(server: TGIServer, tools: list[ScriptedTool]) -> Agent:
    llm = build_llm(LLMSettings.from_env({}, spec=f"tgi+{server.url}"))
    assert isinstance(llm, TGILLM)
    return Agent(llm, tools, backoff_s=0.01)


def test_tool_question_costs_two_calls_with_grammar(
    tgi_server: TGIServer, tools: list[ScriptedTool]
) -> None:
    tgi_server.enqueue(call("information", entity="Heat"), final("Michael Mann directed Heat."))
    result = tgi_agent(tgi_server, tools).ask("Who directed Heat?")
    assert result.answer == "Michael Mann directed Heat."
    posted = tgi_server.posted("/")
    assert len(posted) == len(result.llm_calls) == 2
    assert posted[0]["stream"] is True
    parameters = posted[0]["parameters"]
    grammar = parameters["grammar"]
    assert grammar["type"] == "json"
    assert "properties" in grammar["value"] and len(grammar["value"]["anyOf"]) == 3
    assert parameters["stop"] == ["Observation:"]
    assert parameters["details"] is True and parameters["max_new_tokens"] == 400
    assert posted[0]["inputs"].startswith("[INST] You are MovieAgent")
    assert posted[1]["inputs"].count("[INST]") == 2  # question, then the Observation turn
    assert '"action": "information"' in posted[1]["inputs"]
    call_1 = result.llm_calls[0]
    assert call_1.prompt_tokens > 100 and not call_1.estimated_tokens
    assert call_1.finish_reason == "eos_token"


def test_answer_streams_token_by_token(tgi_server: TGIServer, tools: list[ScriptedTool]) -> None:
    tgi_server.enqueue(final("Heat is a 1995 crime film directed by Michael Mann."))
    events = list(tgi_agent(tgi_server, tools).stream("Tell me about Heat"))
    tokens = [e.text for e in events if isinstance(e, AnswerToken)]
    assert len(tokens) >= 10
    assert "".join(tokens) == "Heat is a 1995 crime film directed by Michael Mann."
    llm_call = next(i for i, e in enumerate(events) if isinstance(e, LLMCallEvent))
    assert events.index(next(e for e in events if isinstance(e, AnswerToken))) < llm_call


@pytest.mark.parametrize("status", [500, 502, 503, 429])
def test_server_errors_are_retried(
    tgi_server: TGIServer, tools: list[ScriptedTool], status: int
) -> None:
    tgi_server.enqueue(status, final("Fine after all."))
    result = tgi_agent(tgi_server, tools).ask("hi")
    assert result.answer == "Fine after all."
    assert result.llm_calls[0].attempts == 2
    assert len(tgi_server.posted("/")) == 2


def test_grammar_refused_by_the_server_falls_back_to_parsing(
    tgi_server: TGIServer, tools: list[ScriptedTool]
) -> None:
    refusal = (422, "grammar is not supported: start TGI without --disable-grammar-support")
    tgi_server.enqueue(refusal, "Thought: easy.\nFinal Answer: Michael Mann.", final("Ronin."))
    agent = tgi_agent(tgi_server, tools)
    assert agent.ask("Who directed Heat?").answer == "Michael Mann."
    assert agent.ask("Like Heat?").answer == "Ronin."
    first, second, third = tgi_server.posted("/")
    assert "grammar" in first["parameters"]
    assert "grammar" not in second["parameters"] and "grammar" not in third["parameters"]


def test_other_validation_errors_are_reported_not_retried(
    tgi_server: TGIServer, tools: list[ScriptedTool]
) -> None:
    tgi_server.enqueue((422, "Input validation error: inputs must have less than 4096 tokens"))
    result = tgi_agent(tgi_server, tools).ask("Who directed Heat?")
    assert result.stop_reason == "error" and "HTTP 422" in (result.error or "")
    assert "4096 tokens" in result.answer
    assert len(tgi_server.posted("/")) == 1


def test_connection_refused_says_what_to_start(closed_port_url: str) -> None:
    llm = TGILLM(closed_port_url)
    request = LLMRequest(messages=[ChatMessage(role="user", content="hi")])
    with pytest.raises(LLMUnavailableError, match="start text-generation-inference") as caught:
        list(llm.stream(request))
    assert closed_port_url in str(caught.value)
    assert "MOVIEAGENT_LLM=llamacpp" in str(caught.value)
    assert not llm.health().reachable


def test_offline_mode_says_to_unset_it(
    tgi_server: TGIServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    from huggingface_hub import constants

    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", True)
    llm = TGILLM(tgi_server.url)
    request = LLMRequest(messages=[ChatMessage(role="user", content="hi")])
    with pytest.raises(LLMUnavailableError, match="unset HF_HUB_OFFLINE for the app process"):
        list(llm.stream(request))
    assert "unset HF_HUB_OFFLINE" in llm.health().detail and not llm.health().reachable
    assert tgi_server.posted("/") == []


def test_health_reads_info(tgi_server: TGIServer) -> None:
    health = TGILLM(tgi_server.url).health()
    assert health.reachable and health.model == MODEL_ID


def test_generate_endpoint_speaks_the_documented_format(tgi_server: TGIServer) -> None:
    """The fake server itself: `/generate` and `/health` as TGI documents them."""
    import httpx

    tgi_server.enqueue("hello")
    body = httpx.post(f"{tgi_server.url}/generate", json={"inputs": "x", "parameters": {}}).json()
    assert body["generated_text"] == "hello" and body["details"]["finish_reason"] == "eos_token"
    assert httpx.get(f"{tgi_server.url}/health").status_code == 200
