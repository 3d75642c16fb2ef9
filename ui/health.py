"""Is the graph reachable and loaded, is the model reachable: checked at most every 30 s."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import streamlit as st

from agent.errors import AgentError
from agent.llm.base import LLM, LLMHealth
from semantic_layer.errors import SemanticLayerError
from semantic_layer.graph_stats import graph_stats
from ui.services import Services

IMPORT_HINT = (
    "The graph is empty: run `movieagent import` to load MovieLens, then reload this page."
)
TTL_S = 30.0


@dataclass(frozen=True)
class GraphHealth:
    reachable: bool
    movies: int = 0
    users: int = 0
    ratings: int = 0
    detail: str = ""

    @property
    def loaded(self) -> bool:
        return self.reachable and self.movies > 0


def graph_health(services: Services) -> GraphHealth:
    if services.graph is None:
        return GraphHealth(reachable=False, detail=services.graph_error or "no graph")
    return _cached("graph_health", lambda: _graph_health(services))


def llm_health(services: Services) -> LLMHealth:
    if services.llm is None:
        return LLMHealth(reachable=False, detail=services.llm_error or "no LLM")
    llm = services.llm
    return _cached("llm_health", lambda: _llm_health(llm))


def forget() -> None:
    """Check again on the next run (the reset button)."""
    for key in ("graph_health", "llm_health"):
        st.session_state.pop(f"_health_{key}", None)


def _graph_health(services: Services) -> GraphHealth:
    assert services.graph is not None
    try:
        stats = graph_stats(services.graph)
    except SemanticLayerError as e:
        return GraphHealth(reachable=False, detail=str(e))
    nodes, rels = stats["nodes"], stats["relationships"]
    health = GraphHealth(
        reachable=True,
        movies=int(nodes.get("Movie", 0)),
        users=int(nodes.get("User", 0)),
        ratings=int(rels.get("RATED", 0)),
    )
    return health if health.loaded else GraphHealth(reachable=True, detail=IMPORT_HINT)


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
