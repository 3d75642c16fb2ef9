"""What resolution needs from the graph: named read queries (a `Graph` or a `TracedGraph`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from semantic_layer.graph import Row


class Reader(Protocol):
    def fulltext_query(self, words: list[str], *, any_word: bool, fuzzy: bool = True) -> str: ...

    def read(self, name: str, params: Mapping[str, Any] | None = None) -> list[Row]: ...
