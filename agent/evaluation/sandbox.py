"""A scratch copy of the graph for one evaluation run, so stored ratings never reach the real one.

On the embedded FalkorDB the graph is copied (`GRAPH.COPY`) and dropped afterwards. Other
backends cannot copy cheaply: the run then uses the graph itself, and only the fresh session
users (ids from `runner.EVAL_USER_BASE`) keep its questions apart.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Iterator
from contextlib import contextmanager

from semantic_layer.graph.base import Graph

log = logging.getLogger(__name__)


@contextmanager
def scratch_graph(graph: Graph) -> Iterator[Graph]:
    from semantic_layer.graph.falkordb_graph import FalkorGraph

    if not isinstance(graph, FalkorGraph):
        log.warning("%s cannot be copied; evaluation users write to it", graph.describe())
        yield graph
        return
    name = f"eval_{uuid.uuid4().hex[:10]}"
    copy = graph.copy_to(name)
    try:
        yield copy
    finally:
        copy.delete_graph()
