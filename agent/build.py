"""The one wiring from settings to an agent, shared by every front end.

`movieagent ask/chat`, the Streamlit app and `movieagent eval` build the LLM once
(`agent.llm.factory.build_llm`), the tools once (`semantic_layer.tools.build_tools`), and the
agent once with `build_agent(llm, tools)`; each turn passes its own `ToolContext` (graph and
session user) to `Agent.stream` / `Agent.ask`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from agent.defaults import DEFAULT_MAX_STEPS as DEFAULT_MAX_STEPS  # its home before `defaults`
from agent.llm.base import LLM
from agent.loop import Agent
from agent.settings import LLMSettings
from semantic_layer.tools.contract import Tool


def build_agent(
    llm: LLM,
    tools: Sequence[Tool[Any]],
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
