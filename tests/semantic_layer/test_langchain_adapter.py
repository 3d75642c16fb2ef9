"""Our tools handed to a LangChain agent through the adapter, offline (a fake chat model)."""

from __future__ import annotations

from typing import Any

import pytest
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, ToolMessage
from langchain_core.tools import ToolException

from semantic_layer.session import Session
from semantic_layer.tools import ToolContext, build_tools
from semantic_layer.tools.langchain_adapter import ToolBinding, as_langchain_tools
from semantic_layer.tools.result import ToolResult
from semantic_layer.users import user_ratings


class ToolCallingFake(GenericFakeChatModel):
    """Scripted replies (tool calls included, so not streamed); `bind_tools` is ignored."""

    disable_streaming: bool = True

    def bind_tools(self, tools: Any, **kwargs: Any) -> Any:
        return self


def _call(name: str, args: dict[str, Any], n: int) -> AIMessage:
    return AIMessage(content="", tool_calls=[{"name": name, "args": args, "id": f"call_{n}"}])


def test_a_langchain_agent_runs_our_tools_and_the_guest_becomes_a_user(writable: Any) -> None:
    classic = pytest.importorskip("langchain_classic.agents")
    from langchain_core.prompts import ChatPromptTemplate, MessagesPlaceholder

    guest = Session()
    binding = ToolBinding(ToolContext(writable, guest))
    tools = as_langchain_tools(build_tools(), binding)
    model = ToolCallingFake(
        messages=iter(
            [
                _call("memory", {"movie": "Heat", "rating": 5}, 1),
                _call("recommender", {}, 2),
                AIMessage(content="Stored; you might like these."),
            ]
        )
    )
    prompt = ChatPromptTemplate.from_messages(
        [("user", "{input}"), MessagesPlaceholder("agent_scratchpad")]
    )
    agent = classic.create_tool_calling_agent(model, tools, prompt)
    executor = classic.AgentExecutor(agent=agent, tools=tools, return_intermediate_steps=True)
    output = executor.invoke({"input": "I loved Heat; what else would I like?"})
    assert output["output"] == "Stored; you might like these."
    (memory, stored), (recommender, recommended) = output["intermediate_steps"]
    assert (memory.tool, recommender.tool) == ("memory", "recommender")
    assert stored.startswith('{"ok": true') and "Heat" in stored
    # the new user is reported and the adapter switched to it; the session object is untouched
    user = binding.context.session.user_id
    assert guest.is_guest and not binding.context.session.is_guest
    assert [r["movieId"] for r in user_ratings(writable, user)] == [6]
    assert "recommendations" in recommended


def test_a_tool_call_gives_the_result_as_the_artifact(tools_graph: Any) -> None:
    binding = ToolBinding(ToolContext(tools_graph, Session(user_id=1)))
    information = {t.name: t for t in as_langchain_tools(build_tools(), binding)}["film_facts"]
    call = {"name": "film_facts", "args": {"entity": "Heat"}, "id": "c1", "type": "tool_call"}
    message = information.invoke(call)
    assert isinstance(message, ToolMessage) and isinstance(message.artifact, ToolResult)
    assert message.artifact.ok and message.artifact.data.title == "Heat"
    assert message.content == message.artifact.observation()


def test_invalid_arguments_are_a_tool_exception(tools_graph: Any) -> None:
    binding = ToolBinding(ToolContext(tools_graph, Session(user_id=1)))
    memory = {t.name: t for t in as_langchain_tools(build_tools(), binding)}["memory"]
    with pytest.raises(ToolException, match="rating"):
        memory.invoke({"movie": "Heat", "rating": 9})


def test_names_are_linked_and_a_name_of_the_wrong_kind_is_an_observation(
    tools_graph: Any,
) -> None:
    binding = ToolBinding(ToolContext(tools_graph, Session(user_id=1)))
    tools = {t.name: t for t in as_langchain_tools(build_tools(), binding)}
    _text, result = tools["film_facts"]._run({"entity": "the movie Heat"})
    assert result.ok and result.data is not None and result.data.title == "Heat"  # type: ignore[union-attr]
    _text, result = tools["top_movies_by_director"]._run({"director": "Chinatown"})
    assert not result.ok and "is not a person" in result.message
