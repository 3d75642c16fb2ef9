"""Send nodes and edges to a new FalkorDB graph through `GRAPH.BULK`, in bounded batches
(`FalkorGraph.bulk_build` hands one out; the import's bulk writer fills it)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import numpy as np

from semantic_layer.errors import BulkLoadError
from semantic_layer.graph.falkordb_bulk_format import (
    blob_header,
    encode_edge,
    encode_node,
    numeric_records,
)

MAX_BATCH_BYTES = 32 << 20  # well under Redis's 512 MB argument limit

__all__ = ["BulkLoadError", "BulkLoader"]


class BulkLoader:
    """Creates nodes then edges in a graph that must not exist yet; counts what FalkorDB made
    (in all, and per label or relationship type in `created`).

    Node ids are assigned in the order nodes are sent, starting at 0: `nodes` returns the ids
    of the nodes it created, for the edges that point at them. That holds only because nobody
    else writes to the graph while it is built: the bulk writer builds under a private graph
    name, holding the data directory alone (`Graph.exclusive`). `BEGIN` refuses a graph that
    exists already.
    """

    def __init__(
        self,
        client: Any,
        graph: str,
        max_batch_bytes: int = MAX_BATCH_BYTES,
        on_sent: Callable[[int], None] | None = None,
    ) -> None:
        self.client = client
        self.graph = graph
        self.max_batch_bytes = max_batch_bytes
        self.on_sent = on_sent
        self.next_id = 0
        self.nodes_created = 0
        self.edges_created = 0
        self.created: Counter[str] = Counter()  # per label or relationship type
        self._begun = False

    def nodes(self, label: str, properties: Sequence[str], rows: Iterable[Sequence[Any]]) -> range:
        """Nodes whose property values (strings, numbers or None) are given row by row."""
        first = self.next_id
        self._send_rows(label, properties, (encode_node(r) for r in rows), edges=False)
        return range(first, self.next_id)

    def node_columns(self, label: str, columns: dict[str, np.ndarray]) -> range:
        """Nodes whose properties are numeric arrays without nulls."""
        first = self.next_id
        records = numeric_records(list(columns.values()))
        self._send_records(label, list(columns), records, edges=False)
        return range(first, self.next_id)

    def edges(
        self,
        rel_type: str,
        properties: Sequence[str],
        rows: Iterable[tuple[int, int, Sequence[Any]]],
    ) -> None:
        """Edges given as (source id, target id, property values)."""
        encoded = (encode_edge(s, t, values) for s, t, values in rows)
        self._send_rows(rel_type, properties, encoded, edges=True)

    def edge_columns(
        self,
        rel_type: str,
        source: np.ndarray,
        target: np.ndarray,
        columns: dict[str, np.ndarray] | None = None,
    ) -> None:
        """Edges from arrays of node ids and numeric property arrays without nulls."""
        columns = columns or {}
        records = numeric_records(list(columns.values()), source, target)
        self._send_records(rel_type, list(columns), records, edges=True)

    # -- batching ------------------------------------------------------------------------------

    def _send_records(
        self, name: str, properties: list[str], records: np.ndarray, *, edges: bool
    ) -> None:
        step = max(1, self.max_batch_bytes // max(records.dtype.itemsize, 1))
        for start in range(0, len(records), step):
            part = records[start : start + step]
            self._send(name, properties, part.tobytes(), len(part), edges=edges)

    def _send_rows(
        self, name: str, properties: Sequence[str], encoded: Iterable[bytes], *, edges: bool
    ) -> None:
        batch: list[bytes] = []
        size = 0
        for record in encoded:
            batch.append(record)
            size += len(record)
            if size >= self.max_batch_bytes:
                self._send(name, properties, b"".join(batch), len(batch), edges=edges)
                batch, size = [], 0
        if batch:
            self._send(name, properties, b"".join(batch), len(batch), edges=edges)

    def _send(
        self, name: str, properties: Sequence[str], body: bytes, count: int, *, edges: bool
    ) -> None:
        import redis

        blob = blob_header(name, properties) + body
        counts = (0, count, 0, 1) if edges else (count, 0, 1, 0)
        args: list[Any] = ["BEGIN"] if not self._begun else []
        try:
            reply = self.client.execute_command("GRAPH.BULK", self.graph, *args, *counts, blob)
        except redis.exceptions.ResponseError as e:
            raise BulkLoadError(f"FalkorDB refused the bulk load of {name}: {e}") from e
        self._begun = True
        created = _created(reply)
        self.nodes_created += created[0]
        self.edges_created += created[1]
        self.created[name] += created[1] if edges else created[0]
        if not edges:
            self.next_id += count
        if self.on_sent:
            self.on_sent(count)


def _created(reply: Any) -> tuple[int, int]:
    """`b"3 nodes created, 2 edges created"` -> (3, 2)."""
    text = reply.decode() if isinstance(reply, bytes) else str(reply)
    nodes, edges = (int(part.strip().split(" ")[0]) for part in text.split(",")[:2])
    return nodes, edges
