"""`completion/complete`: a prompt's movie, person or genre argument completed from the graph
(`semantic_layer.linking.complete`, over the graph's own indexes)."""

from __future__ import annotations

from mcp import types

from mcp_server.prompts import PROMPTS
from semantic_layer.graph import Graph
from semantic_layer.linking.complete import complete

LIMIT = 10


def completion(graph: Graph, params: types.CompleteRequestParams) -> types.CompleteResult:
    """The names that complete the typed argument; none for an argument we do not know."""
    values: list[str] = []
    if isinstance(params.ref, types.PromptReference) and (spec := PROMPTS.get(params.ref.name)):
        kinds = {a.name: a.kind for a in spec.arguments}
        kind = kinds.get(params.argument.name)
        if kind is not None:
            values = complete(graph, kind, params.argument.value, LIMIT + 1)
    more = len(values) > LIMIT
    return types.CompleteResult(completion=types.Completion(values=values[:LIMIT], has_more=more))
