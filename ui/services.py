"""The clients the page uses: the graph and the LLM, built once per process from the settings.

A setting or connection that fails leaves its client `None` and keeps the sentence that says
what to do, so the page can show it instead of a stack trace.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field

import streamlit as st
from langchain_core.tools import BaseTool

from agent.build import DEFAULT_MAX_STEPS, build_agent, session_tools
from agent.errors import AgentError
from agent.llm.base import LLM
from agent.loop import Agent
from agent.settings import LLMSettings
from semantic_layer.errors import SemanticLayerError
from semantic_layer.graph import Graph
from semantic_layer.session import Session

ToolsFactory = Callable[[Graph, Session], list[BaseTool]]


@dataclass
class Services:
    graph: Graph | None
    llm: LLM | None
    graph_label: str
    llm_label: str
    llm_settings: LLMSettings | None = None
    graph_error: str | None = None
    llm_error: str | None = None
    make_tools: ToolsFactory = session_tools
    max_steps: int = DEFAULT_MAX_STEPS
    extra: dict[str, object] = field(default_factory=dict)

    def agent(self, session: Session) -> Agent:
        """An agent for one turn, its tools bound to the session user."""
        assert self.llm is not None and self.graph is not None
        tools = self.make_tools(self.graph, session)
        return build_agent(self.llm, tools, self.llm_settings, max_steps=self.max_steps)

    def warm_up(self) -> threading.Thread | None:
        """Load the model and cache the prompt's static head (rules and tools, the same for
        every session) in the background, so the first question does not pay for them."""
        if self.llm is None or self.graph is None or not self.llm.caches_prompt:
            return None
        thread = threading.Thread(
            target=self.agent(Session()).warm_up, name="llm-warm-up", daemon=True
        )
        thread.start()
        return thread


@st.cache_resource(show_spinner="Connecting to the graph…")
def load_services() -> Services:
    """The graph and LLM named by the environment (see the README's configuration table)."""
    from agent.llm.factory import build_llm
    from semantic_layer.graph import connect
    from semantic_layer.settings import GraphSettings

    graph: Graph | None = None
    graph_label, graph_error = "graph", None
    try:
        graph_settings = GraphSettings.from_env()
        graph_label = graph_settings.describe()
        graph = connect(graph_settings)
        graph_label = graph.describe()
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
