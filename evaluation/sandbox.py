"""A scratch copy of the graph for one evaluation run, so stored ratings never reach the real one.

A backend that copies a graph cheaply (the embedded graph) gives a copy that is dropped
afterwards (`Graph.scratch_copy`). Others cannot: the run then uses the graph itself, and only
the fresh session users (ids from `user_policy.eval_user_ids`) keep its questions apart.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager

from semantic_layer.graph.base import Graph

log = logging.getLogger(__name__)


@contextmanager
def scratch_graph(graph: Graph) -> Iterator[Graph]:
    with graph.scratch_copy("eval") as copy:
        if copy is None:
            log.warning("%s cannot be copied; evaluation users write to it", graph.describe())
        yield copy or graph
