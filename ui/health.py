"""Is the graph reachable and loaded, is the model reachable: checked at most every 30 s."""

from __future__ import annotations

import time
from collections.abc import Callable

import streamlit as st

from agent.errors import AgentError
from agent.llm.base import LLM, LLMHealth
from semantic_layer.graph_stats import GraphHealth
from semantic_layer.graph_stats import graph_health as check_graph
from ui.services import Services

TTL_S = 30.0


def graph_health(services: Services) -> GraphHealth:
    if services.graph is None:
        return GraphHealth(reachable=False, detail=services.graph_error or "no graph")
    graph = services.graph
    return _cached("graph_health", lambda: check_graph(graph))


def llm_health(services: Services) -> LLMHealth:
    if services.llm is None:
        return LLMHealth(reachable=False, detail=services.llm_error or "no LLM")
    llm = services.llm
    return _cached("llm_health", lambda: _llm_health(llm))


def forget() -> None:
    """Check again on the next run (the reset button)."""
    for key in ("graph_health", "llm_health"):
        st.session_state.pop(f"_health_{key}", None)


def _llm_health(llm: LLM) -> LLMHealth:
    try:
        return llm.health()
    except AgentError as e:  # a backend whose check raises: unreachable, with its sentence
        return LLMHealth(reachable=False, detail=str(e))


def _cached[T](key: str, compute: Callable[[], T]) -> T:
    slot = f"_health_{key}"
    hit = st.session_state.get(slot)
    if hit is not None and time.monotonic() - hit[0] < TTL_S:
        return hit[1]
    value = compute()
    st.session_state[slot] = (time.monotonic(), value)
    return value
