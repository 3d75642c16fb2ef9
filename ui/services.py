"""The clients the page uses: the graph, the LLM and the agent, built once per process.

The agent (its tools, prompt and grammars) is made on first use and shared by every turn and
every user; each turn passes its own session in a `ToolContext`.

A setting or connection that fails leaves its client `None` and keeps the sentence that says
what to do, so the page can show it instead of a stack trace.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import streamlit as st

from agent.build import DEFAULT_MAX_STEPS, build_agent
from agent.errors import AgentError
from agent.llm.base import LLM
from agent.loop import Agent
from agent.settings import LLMSettings
from semantic_layer.errors import SemanticLayerError
from semantic_layer.graph import Graph
from semantic_layer.session import Session
from semantic_layer.tools import Tool, ToolContext, build_tools


@dataclass
class Services:
    graph: Graph | None
    llm: LLM | None
    graph_label: str
    llm_label: str
    llm_settings: LLMSettings | None = None
    graph_error: str | None = None
    llm_error: str | None = None
    tools: Sequence[Tool[Any]] | None = None  # None: `build_tools()` on first use
    max_steps: int = DEFAULT_MAX_STEPS
    extra: dict[str, object] = field(default_factory=dict)
    _agent: Agent | None = field(default=None, init=False, repr=False)

    def agent(self) -> Agent:
        """The one agent of this process (built on first use, then reused by every turn)."""
        assert self.llm is not None
        if self._agent is None:
            tools = build_tools() if self.tools is None else self.tools
            self._agent = build_agent(self.llm, tools, self.llm_settings, max_steps=self.max_steps)
        return self._agent

    def context(self, session: Session) -> ToolContext:
        """What one turn's tool calls run against: the graph and the session user."""
        assert self.graph is not None
        return ToolContext(self.graph, session)

    def warm_up(self) -> threading.Thread | None:
        """Load the model and cache the prompt's static head (rules and tools, the same for
        every session) in the background, so the first question does not pay for them."""
        if self.llm is None or self.graph is None:
            return None
        return self.agent().warm_up_in_background()


@st.cache_resource(show_spinner="Connecting to the graph…")
def load_services() -> Services:
    """The graph and LLM named by the environment (see docs/configuration.md)."""
    from agent.llm.factory import build_llm
    from semantic_layer.graph import connect
    from semantic_layer.recommend.neighbour_cache import SHARED
    from semantic_layer.settings import GraphSettings

    graph: Graph | None = None
    graph_label, graph_error = "graph", None
    try:
        graph_settings = GraphSettings.from_env()
        graph_label = graph_settings.describe()
        graph = connect(graph_settings)
        graph_label = graph.describe()
        SHARED.warm_in_background(graph)  # the recommender's neighbourhoods, in memory
    except SemanticLayerError as e:
        graph_error = str(e)
    llm: LLM | None = None
    llm_settings: LLMSettings | None = None
    llm_label, llm_error = "LLM", None
    try:
        llm_settings = LLMSettings.from_env()
        llm_label = llm_settings.describe()
        llm = build_llm(llm_settings)
        llm_label = llm.describe()
    except AgentError as e:
        llm_error = str(e)
    services = Services(
        graph=graph,
        llm=llm,
        graph_label=graph_label,
        llm_label=llm_label,
        llm_settings=llm_settings,
        graph_error=graph_error,
        llm_error=llm_error,
    )
    services.warm_up()  # once per process: this function is a cached resource
    return services
