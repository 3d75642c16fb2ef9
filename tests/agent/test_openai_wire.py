"""The OpenAI-compatible backend on the wire: the `response_format` shape each server takes.

Against a fake vLLM (OpenAI's `json_schema`), a fake TGI behind `openai+http://` (TGI's
`{"type": "json", "value": ...}`, found by its `/info`), and a server that takes only
`json_object` (llama-cpp-python's); a grammar that is lost is said, not only logged.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from agent import Agent, build_llm
from agent.errors import LLMConfigurationError, LLMUnavailableError
from agent.llm.base import MAX_NEW_TOKENS, ChatMessage, LLMRequest
from agent.llm.openai_compat import OpenAICompatLLM
from agent.settings import LLMSettings
from tests.agent.fakes import ScriptedTool, call, final
from tests.agent.tgi_server import MODEL_ID, TGIServer, VLLMServer

CHAT = "/v1/chat/completions"


class JsonObjectOnly(VLLMServer):
    """llama-cpp-python's server: `json_object` with a `schema`, nothing else."""

    def grammar_refusal(self, response_format: Any) -> tuple[int, str] | None:
        if response_format.get("type") == "json_object":
            return None
        return 422, "body.response_format.type: Input should be 'text' or 'json_object'"


@pytest.fixture
def vllm_server() -> Iterator[VLLMServer]:
    server = VLLMServer().start()
    yield server
    server.stop()


def openai_llm(spec: str) -> OpenAICompatLLM:
    llm = build_llm(LLMSettings.from_env({}, spec=spec))
    assert isinstance(llm, OpenAICompatLLM)
    return llm


def test_vllm_gets_openai_json_schema(vllm_server: VLLMServer, tools: list[ScriptedTool]) -> None:
    llm = openai_llm(f"openai+{vllm_server.url}/v1")
    vllm_server.enqueue(call("information", entity="Heat"), final("Michael Mann."))
    result = Agent(llm, tools).ask("Who directed Heat?")
    assert result.answer == "Michael Mann."
    posted = vllm_server.posted(CHAT)
    assert len(posted) == 2
    body = posted[0]
    assert body["model"] == MODEL_ID  # discovered from /v1/models
    assert body["response_format"]["type"] == "json_schema"
    assert body["response_format"]["json_schema"]["name"] == "react_step"
    assert "anyOf" in body["response_format"]["json_schema"]["schema"]
    assert [m["role"] for m in posted[1]["messages"]] == ["user", "assistant", "user"]
    assert result.llm_calls[0].prompt_tokens > 0 and not result.llm_calls[0].estimated_tokens
    assert llm.health().unconstrained == ""


def test_tgi_behind_openai_spec_keeps_its_grammar(
    tgi_server: TGIServer, tools: list[ScriptedTool]
) -> None:
    """Before: TGI turned `json_schema` down and the backend went on without, in a log line."""
    llm = openai_llm(f"openai+{tgi_server.url}/v1")
    tgi_server.enqueue(call("information", entity="Heat"), final("Michael Mann."))
    assert Agent(llm, tools).ask("Who directed Heat?").answer == "Michael Mann."
    first, second = tgi_server.posted(CHAT)
    assert (
        first["response_format"]["type"] == "json" and "anyOf" in first["response_format"]["value"]
    )
    # the second step keeps TGI's shape (its schema offers only the tools not yet answered)
    assert second["response_format"]["type"] == "json"
    assert "anyOf" in second["response_format"]["value"]["properties"]["action_input"]
    assert [p for p, _ in tgi_server.requests].count("/info") == 1  # asked once
    assert llm.health().unconstrained == ""


def test_spec_can_name_the_shape(tgi_server: TGIServer, tools: list[ScriptedTool]) -> None:
    llm = openai_llm(f"openai+{tgi_server.url}/v1?grammar=tgi")
    assert llm.url == f"{tgi_server.url}/v1"
    tgi_server.enqueue(final("Ronin."))
    assert Agent(llm, tools).ask("Like Heat?").answer == "Ronin."
    assert tgi_server.posted(CHAT)[0]["response_format"]["type"] == "json"
    assert "/info" not in [p for p, _ in tgi_server.requests]


def test_a_shape_the_server_refuses_is_said_once(
    vllm_server: VLLMServer, tools: list[ScriptedTool], caplog: pytest.LogCaptureFixture
) -> None:
    llm = openai_llm(f"openai+{vllm_server.url}/v1?grammar=tgi")
    vllm_server.enqueue("Final Answer: Michael Mann.", final("Ronin."))
    agent = Agent(llm, tools)
    assert agent.ask("Who directed Heat?").answer == "Michael Mann."
    assert agent.ask("Like Heat?").answer == "Ronin."
    first, second, third = vllm_server.posted(CHAT)
    assert "response_format" in first
    assert "response_format" not in second and "response_format" not in third
    note = llm.health().unconstrained
    assert note.startswith("Replies are not grammar-constrained") and "json_schema" in note
    assert [r.message for r in caplog.records if r.levelname == "WARNING"] == [note]


def test_json_object_is_tried_before_going_without(tools: list[ScriptedTool]) -> None:
    server = JsonObjectOnly().start()
    try:
        llm = openai_llm(f"openai+{server.url}/v1")
        server.enqueue(final("Ronin."), final("Heat."))
        agent = Agent(llm, tools)
        assert agent.ask("Like Heat?").answer == "Ronin."
        assert agent.ask("And?").answer == "Heat."
        shapes = [b["response_format"]["type"] for b in server.posted(CHAT)]
        assert shapes == ["json_schema", "json_object", "json_object"]
        assert "anyOf" in server.posted(CHAT)[1]["response_format"]["schema"]
        assert llm.unconstrained == ""
    finally:
        server.stop()


def test_grammar_none_is_said_before_the_first_question(vllm_server: VLLMServer) -> None:
    llm = openai_llm(f"openai+{vllm_server.url}/v1?grammar=none")
    assert not llm.supports_grammar
    assert "grammar=none" in llm.health().unconstrained


def test_unknown_options_are_refused() -> None:
    with pytest.raises(LLMConfigurationError, match="grammar=, one of"):
        OpenAICompatLLM("http://127.0.0.1:9/v1?shape=tgi")
    with pytest.raises(LLMConfigurationError, match="'xml' is not one of"):
        OpenAICompatLLM("http://127.0.0.1:9/v1?grammar=xml")


def test_prompt_errors_are_not_mistaken_for_a_refused_grammar(
    vllm_server: VLLMServer, tools: list[ScriptedTool]
) -> None:
    vllm_server.enqueue((400, "This model's maximum context length is 4096 tokens."))
    llm = openai_llm(f"openai+{vllm_server.url}/v1")
    result = Agent(llm, tools).ask("Who directed Heat?")
    assert result.stop_reason == "error" and "maximum context length" in result.answer
    assert llm.unconstrained == "" and len(vllm_server.posted(CHAT)) == 1


def test_lone_surrogates_are_replaced_not_fatal(vllm_server: VLLMServer) -> None:
    """Issue 11, item 8: `\\ud800` in a question or in a reply used to raise UnicodeEncodeError."""
    vllm_server.enqueue("Heat \ud800 (1995)")
    llm = OpenAICompatLLM(f"{vllm_server.url}/v1", model="m")
    request = LLMRequest(messages=[ChatMessage(role="user", content="\ud800Heat")])
    text = "".join(c.text for c in llm.stream(request))
    assert text == "Heat \ufffd (1995)"
    assert vllm_server.posted(CHAT)[0]["messages"][0]["content"] == "\ufffdHeat"


def test_connection_refused_says_what_to_start(closed_port_url: str) -> None:
    llm = OpenAICompatLLM(f"{closed_port_url}/v1", model="m")
    request = LLMRequest(messages=[ChatMessage(role="user", content="hi")])
    with pytest.raises(LLMUnavailableError, match="OpenAI-compatible server"):
        list(llm.stream(request))


def test_the_context_window_is_what_the_server_states(
    vllm_server: VLLMServer, tgi_server: TGIServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    llm = OpenAICompatLLM(f"{vllm_server.url}/v1")
    assert llm.context_window() == 8192  # max_model_len, from GET /v1/models
    assert llm.context_window() == 8192 and len(vllm_server.posted("/v1/models")) == 1
    # a TGI reached as an OpenAI server: its /info, read once for the grammar and the window
    tgi = OpenAICompatLLM(f"{tgi_server.url}/v1")
    assert tgi.grammar_shape() == "tgi" and tgi.context_window() == 4095 + MAX_NEW_TOKENS
    assert [p for p, _ in tgi_server.requests] == ["/info"]
    monkeypatch.setattr(vllm_server, "model_card", lambda: {"id": MODEL_ID, "object": "model"})
    silent = OpenAICompatLLM(f"{vllm_server.url}/v1")  # a listing without a length, no /props
    assert silent.context_window() is None and silent.context_window() is None
    assert len(vllm_server.posted("/v1/models")) == 2  # an answer without one is not re-asked
    assert silent.prompt_limit() is None  # the window less the answer is the limit
    # llama.cpp's server (and `movieagent llm serve`): the context in GET /props
    props = {"default_generation_settings": {"n_ctx": 4096, "n_predict": -1}, "total_slots": 1}
    monkeypatch.setattr(vllm_server, "props", lambda: props)
    assert OpenAICompatLLM(f"{vllm_server.url}/v1").context_window() == 4096
    assert [p for p, _ in vllm_server.requests][-2:] == ["/v1/models", "/props"]
