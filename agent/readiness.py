"""Before the first question: is the graph loaded, does the model answer? One sentence each."""

from __future__ import annotations

from agent.errors import AgentError
from agent.llm.base import LLM
from semantic_layer.errors import GraphQueryError, SemanticLayerError
from semantic_layer.graph import Graph
from semantic_layer.graph_stats import graph_stats

IMPORT_HINT = (
    "{graph} holds no movies yet: run `movieagent import` to load MovieLens, then ask again."
)


def graph_problem(graph: Graph) -> str | None:
    """Why questions cannot be answered from `graph`, or None when it holds movies."""
    try:
        movies = int(graph_stats(graph)["nodes"].get("Movie", 0))
    except GraphQueryError:  # it answered: an embedded graph never imported has no key yet
        movies = 0
    except SemanticLayerError as e:  # unreachable: the error says what to start
        return str(e)
    return None if movies else IMPORT_HINT.format(graph=graph.describe())


def llm_problem(llm: LLM) -> str | None:
    """Why `llm` cannot answer (what to start or fix), or None when it is reachable."""
    try:
        health = llm.health()
    except AgentError as e:
        return str(e)
    return None if health.reachable else health.detail or f"{llm.describe()} does not answer."
