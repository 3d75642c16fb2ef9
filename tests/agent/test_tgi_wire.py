"""The TGI backend on the wire, against a server that speaks TGI's documented API.

The backend sends chat messages to TGI's Messages API and the server applies the served model's
own template: a Mixtral and a Qwen deployment get the same request, rendered differently.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from agent import Agent, AnswerToken, LLMCallEvent, build_llm
from agent.errors import LLMUnavailableError
from agent.llm.base import MAX_NEW_TOKENS, ChatMessage, LLMRequest
from agent.llm.tgi import TGILLM
from agent.observation import estimate
from agent.prompt import ReactPrompt
from agent.settings import LLMSettings
from semantic_layer.tools.result import ToolResult
from tests.agent.fakes import ScriptedTool, call, final
from tests.agent.tgi_server import MODEL_ID, QWEN_ID, TGIServer

CHAT = "/v1/chat/completions"


@pytest.fixture
def qwen_server() -> Iterator[TGIServer]:
    server = TGIServer(model_id=QWEN_ID).start()
    yield server
    server.stop()


def tgi_agent(server: TGIServer, tools: list[ScriptedTool]) -> Agent:
    llm = build_llm(LLMSettings.from_env({}, spec=f"tgi+{server.url}"))
    assert isinstance(llm, TGILLM)
    return Agent(llm, tools, backoff_s=0.01)


def test_messages_api_with_tgi_grammar(tgi_server: TGIServer, tools: list[ScriptedTool]) -> None:
    tgi_server.enqueue(call("information", entity="Heat"), final("Michael Mann directed Heat."))
    result = tgi_agent(tgi_server, tools).ask("Who directed Heat?")
    assert result.answer == "Michael Mann directed Heat."
    posted = tgi_server.posted(CHAT)
    assert len(posted) == len(result.llm_calls) == 2
    # the window, asked once; no /generate, no probe
    assert [p for p, _ in tgi_server.requests if p != CHAT] == ["/info"]
    first, second = posted
    assert first["stream"] is True and first["stream_options"] == {"include_usage": True}
    grammar = first["response_format"]
    assert grammar["type"] == "json" and set(grammar) == {"type", "value"}
    assert "properties" in grammar["value"] and len(grammar["value"]["anyOf"]) == 3
    assert first["stop"] == ["Observation:"] and first["max_tokens"] == MAX_NEW_TOKENS
    assert first["temperature"] == 0
    assert [m["role"] for m in first["messages"]] == ["user"]
    assert first["messages"][0]["content"].startswith("You are MovieAgent")
    assert [m["role"] for m in second["messages"]] == ["user", "assistant", "user"]
    assert '"action": "information"' in second["messages"][1]["content"]
    call_1 = result.llm_calls[0]
    assert call_1.prompt_tokens > 100 and not call_1.estimated_tokens
    assert call_1.finish_reason == "stop"


@pytest.mark.parametrize(
    ("fixture", "opening", "foreign"),
    [("tgi_server", "[INST] You are MovieAgent", "<|im_start|>"),
     ("qwen_server", "<|im_start|>user\nYou are MovieAgent", "[INST]")],
)  # fmt: skip
def test_the_served_models_template_renders_the_prompt(
    request: pytest.FixtureRequest,
    tools: list[ScriptedTool],
    fixture: str,
    opening: str,
    foreign: str,
) -> None:
    server: TGIServer = request.getfixturevalue(fixture)
    server.enqueue(call("information", entity="Heat"), final("Michael Mann."))
    assert tgi_agent(server, tools).ask("Who directed Heat?").answer == "Michael Mann."
    for body in server.posted(CHAT):  # what we sent: plain turns, no template markup
        assert all("[INST]" not in m["content"] for m in body["messages"])
        assert all("<|im_start|>" not in m["content"] for m in body["messages"])
    first, second = server.rendered  # what the server made of it: its model's own template
    assert first.startswith(opening) and foreign not in second
    assert second.count(opening) == 1 and "Observation" in second


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
    assert len(tgi_server.posted(CHAT)) == 2


def test_grammar_refused_by_the_server_is_said_once(tools: list[ScriptedTool]) -> None:
    server = TGIServer(grammar=False).start()  # as with --disable-grammar-support
    try:
        server.enqueue("Thought: easy.\nFinal Answer: Michael Mann.", final("Ronin."))
        agent = tgi_agent(server, tools)
        assert not agent.llm.health().unconstrained
        assert agent.ask("Who directed Heat?").answer == "Michael Mann."
        assert agent.ask("Like Heat?").answer == "Ronin."
        first, second, third = server.posted(CHAT)
        assert "response_format" in first
        assert "response_format" not in second and "response_format" not in third
        note = agent.llm.health().unconstrained
        assert "not grammar-constrained" in note and "Grammar and tools are not supported" in note
    finally:
        server.stop()


def test_other_validation_errors_are_reported_not_retried(
    tgi_server: TGIServer, tools: list[ScriptedTool]
) -> None:
    tgi_server.enqueue((422, "Input validation error: inputs must have less than 4096 tokens"))
    agent = tgi_agent(tgi_server, tools)
    result = agent.ask("Who directed Heat?")
    assert result.stop_reason == "error" and "HTTP 422" in (result.error or "")
    assert "4096 tokens" in result.answer
    assert len(tgi_server.posted(CHAT)) == 1
    assert agent.llm.unconstrained == ""  # a long prompt does not cost the grammar


def test_connection_refused_says_what_to_start(closed_port_url: str) -> None:
    llm = TGILLM(closed_port_url)
    request = LLMRequest(messages=[ChatMessage(role="user", content="hi")])
    with pytest.raises(LLMUnavailableError, match="start text-generation-inference") as caught:
        list(llm.stream(request))
    assert closed_port_url in str(caught.value)
    assert "MOVIEAGENT_LLM=llamacpp" in str(caught.value)
    assert not llm.health().reachable


def test_hub_offline_mode_does_not_matter(tgi_server: TGIServer) -> None:
    """Plain HTTP: HF_HUB_OFFLINE (set for the whole test run) no longer blocks a local TGI."""
    from huggingface_hub import constants

    assert constants.is_offline_mode()
    tgi_server.enqueue("hello")
    request = LLMRequest(messages=[ChatMessage(role="user", content="hi")])
    assert "".join(c.text for c in TGILLM(tgi_server.url).stream(request)) == "hello"


def test_lone_surrogates_are_replaced_not_fatal(tgi_server: TGIServer) -> None:
    """Issue 11, item 8: `\\ud800` in a question or in a reply used to raise UnicodeEncodeError."""
    tgi_server.enqueue("Heat \ud800 (1995)")
    llm = TGILLM(tgi_server.url)
    request = LLMRequest(messages=[ChatMessage(role="user", content="\ud800Heat")])
    text = "".join(c.text for c in llm.stream(request))
    assert text == "Heat \ufffd (1995)" and text.encode("utf-8")
    assert tgi_server.posted(CHAT)[0]["messages"][0]["content"] == "\ufffdHeat"


def test_lone_surrogate_question_through_the_agent(
    tgi_server: TGIServer, tools: list[ScriptedTool]
) -> None:
    tgi_server.enqueue(json.dumps({"thought": "x", "action": "Final Answer", "action_input": "ok"}))
    result = tgi_agent(tgi_server, tools).ask("Who directed \ud800Heat?")
    assert result.answer == "ok" and result.stop_reason != "error"


def test_the_context_window_is_what_info_admits(
    tgi_server: TGIServer, tools: list[ScriptedTool], monkeypatch: pytest.MonkeyPatch
) -> None:
    agent = tgi_agent(tgi_server, tools)
    # the fake says max_input_tokens 4095 and no total: a 4095-token prompt and an answer
    assert agent.llm.context_window() == agent.context_tokens == 4095 + MAX_NEW_TOKENS
    assert [p for p, _ in tgi_server.requests] == ["/info"]  # asked once, then kept
    info = {
        "model_id": MODEL_ID, "version": "1.4.5", "router": "text-generation-router",
        "max_input_length": 6144, "max_total_tokens": 6200,
    }  # fmt: skip
    monkeypatch.setattr(tgi_server, "info", lambda: info)  # TGI 1.x names, a tight total
    llm = tgi_agent(tgi_server, tools).llm
    assert llm.context_window() == 6200 and llm.prompt_limit() == 6144


def test_a_shorter_answer_leaves_the_prompt_within_what_tgi_takes(
    tgi_server: TGIServer, tools: list[ScriptedTool], monkeypatch: pytest.MonkeyPatch
) -> None:
    """TGI refuses a prompt over `max_input_tokens` however short the answer asked for: with
    MOVIEAGENT_MAX_NEW_TOKENS at 64 the prompt gets no more room than with 512."""
    question = ReactPrompt(tools).messages("Like Heat?")
    limit = sum(estimate(m.content) + 4 for m in question) + 150  # room for a reply and a row
    monkeypatch.setattr(
        tgi_server, "info", lambda: {**TGIServer.info(tgi_server), "max_input_tokens": limit}
    )
    rows = [{"movie": f"Movie number {i} ({1900 + i})", "why": "x" * 40} for i in range(300)]
    tools[0].results.append(
        ToolResult(tool="recommender", kind="recommendations", data={"recommendations": rows})
    )
    tgi_server.enqueue(call("recommender", movie="Heat"), final("ok"))
    llm = build_llm(LLMSettings.from_env({}, spec=f"tgi+{tgi_server.url}"))
    assert Agent(llm, tools, backoff_s=0.01, max_new_tokens=64).ask("Like Heat?").answer == "ok"
    last = tgi_server.posted(CHAT)[-1]["messages"]
    assert "Movie number 1 (1901)" in last[-1]["content"]  # the Observation got what was left
    assert sum(estimate(m["content"]) + 4 for m in last) <= limit


def test_a_window_nobody_states_is_asked_again(closed_port_url: str) -> None:
    llm = TGILLM(closed_port_url)
    assert llm.context_window() is None  # the agent then budgets for its small default
    server = TGIServer().start()
    try:
        llm.url = f"{server.url}/v1"  # the server is up now
        assert llm.context_window() == 4095 + MAX_NEW_TOKENS
    finally:
        server.stop()


def test_health_reads_info(tgi_server: TGIServer) -> None:
    health = TGILLM(tgi_server.url).health()
    assert health.reachable and health.model == MODEL_ID and not health.unconstrained


def test_generate_endpoint_speaks_the_documented_format(tgi_server: TGIServer) -> None:
    """The fake server itself: `/generate` and `/health` as TGI documents them."""
    import httpx

    tgi_server.enqueue("hello")
    body = httpx.post(f"{tgi_server.url}/generate", json={"inputs": "x", "parameters": {}}).json()
    assert body["generated_text"] == "hello" and body["details"]["finish_reason"] == "eos_token"
    assert httpx.get(f"{tgi_server.url}/health").status_code == 200
