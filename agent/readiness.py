"""Before the first question: is the graph loaded, does the model answer? One sentence each."""

from __future__ import annotations

from agent.errors import AgentError
from agent.llm.base import LLM
from semantic_layer.graph_stats import graph_problem

__all__ = ["graph_problem", "llm_problem"]


def llm_problem(llm: LLM) -> str | None:
    """Why `llm` cannot answer (what to start or fix), or None when it is reachable."""
    try:
        health = llm.health()
    except AgentError as e:
        return str(e)
    return None if health.reachable else health.detail or f"{llm.describe()} does not answer."
