"""FalkorDB's `GRAPH.BULK` command: builds a new graph from binary-encoded batches.

The wire format is the one `falkordb-bulk-loader` sends. Each call carries node and edge counts
and one blob per label or relationship type: the name and property names (NUL-terminated, the
count as uint32), then one record per entity, each property a type byte and a little-endian
value (long: int64, double: float64, string: NUL-terminated UTF-8, null: the type byte alone).
An edge record starts with the source and target node ids (uint64). Node ids are given in
creation order from 0, so a loader that counts nodes as it sends them knows every id.

Numeric columns are encoded with numpy structured arrays (a few seconds for 25M edges); rows
with strings or nulls are packed in Python, which is fine for the tens of thousands of movies
and people and the million tags of ml-25m.
"""

from __future__ import annotations

import struct
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

NULL, BOOL, DOUBLE, STRING, LONG = 0, 1, 2, 3, 4
_LONG = struct.Struct("<Bq")
_DOUBLE = struct.Struct("<Bd")
_IDS = struct.Struct("<QQ")


def blob_header(name: str, properties: Sequence[str]) -> bytes:
    """The start of a label or relationship-type blob: its name and property names."""
    parts = [_cstring(name), struct.pack("<I", len(properties))]
    parts += [_cstring(p) for p in properties]
    return b"".join(parts)


def encode_value(value: Any) -> bytes:
    if value is None:
        return b"\x00"
    if isinstance(value, bool):
        return struct.pack("<B?", BOOL, value)
    if isinstance(value, int):
        return _LONG.pack(LONG, value)
    if isinstance(value, float):
        return _DOUBLE.pack(DOUBLE, value)
    if isinstance(value, str):
        return bytes([STRING]) + _cstring(value)
    raise TypeError(f"GRAPH.BULK cannot encode {type(value).__name__} {value!r}")


def encode_node(values: Iterable[Any]) -> bytes:
    return b"".join(encode_value(v) for v in values)


def encode_edge(source: int, target: int, values: Iterable[Any]) -> bytes:
    return _IDS.pack(source, target) + encode_node(values)


def numeric_records(
    columns: Sequence[np.ndarray],
    source: np.ndarray | None = None,
    target: np.ndarray | None = None,
) -> np.ndarray:
    """Fixed-size records for numeric columns (and edge ends), as a structured array.

    Integer columns become longs and float columns doubles; none may hold nulls.
    """
    layout: list[tuple[str, str]] = []
    if source is not None:
        layout += [("source", "<u8"), ("target", "<u8")]
    for i, column in enumerate(columns):
        kind = "<f8" if np.issubdtype(column.dtype, np.floating) else "<i8"
        layout += [(f"t{i}", "u1"), (f"v{i}", kind)]
    length = len(source) if source is not None else len(columns[0]) if columns else 0
    records = np.empty(length, dtype=np.dtype(layout))
    if source is not None:
        records["source"] = source
        records["target"] = target
    for i, column in enumerate(columns):
        records[f"t{i}"] = DOUBLE if np.issubdtype(column.dtype, np.floating) else LONG
        records[f"v{i}"] = column
    return records


def _cstring(text: str) -> bytes:
    return text.replace("\x00", "").encode("utf-8") + b"\x00"
