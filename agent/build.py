"""The one wiring from settings and a session to an agent, shared by every front end.

`movieagent ask/chat`, the Streamlit app and `movieagent eval` build the LLM once
(`agent.llm.factory.build_llm`), connect the graph once, and then make one `Agent` per
conversation (or turn) from the session user's tools with `build_agent(llm, session_tools(...))`.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence

from langchain_core.tools import BaseTool

from agent.errors import AgentError
from agent.llm.base import LLM
from agent.loop import Agent
from agent.settings import LLMSettings
from semantic_layer.graph import Graph
from semantic_layer.session import Session

DEFAULT_MAX_STEPS = 5


class ToolsUnavailableError(AgentError):
    """The semantic-layer tools could not be loaded."""


def session_tools(graph: Graph, session: Session) -> list[BaseTool]:
    """The semantic layer's tools, bound to `graph` and the session user."""
    try:  # looked up at run time: the tools live in the semantic layer
        build_tools = importlib.import_module("semantic_layer.tools").build_tools
    except (ImportError, AttributeError) as e:
        raise ToolsUnavailableError(
            f"The semantic-layer tools are not available ({e}); reinstall movieagent."
        ) from e
    return list(build_tools(graph, session))


def build_agent(
    llm: LLM,
    tools: Sequence[BaseTool],
    settings: LLMSettings | None = None,
    *,
    max_steps: int = DEFAULT_MAX_STEPS,
) -> Agent:
    """An agent over `tools` with the timeouts and token budget from `settings`."""
    if settings is None:
        return Agent(llm, tools, max_steps=max_steps)
    return Agent(
        llm,
        tools,
        max_steps=max_steps,
        call_timeout_s=settings.timeout_s,
        max_new_tokens=settings.max_new_tokens,
        tool_first=settings.tool_first,
    )
