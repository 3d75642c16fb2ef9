"""Full-text queries for misspellings, built only from words: user text is never query syntax.

Each backend writes the index query in its own syntax (`Graph.fulltext_query`). Words come from
`title_words`/`normalize_name`, which keep letters and digits only, so no operator, quote or
bracket can reach the index.
"""

from __future__ import annotations

import re
from typing import Any

from semantic_layer.errors import GraphQueryError
from semantic_layer.normalize import STOPWORDS
from semantic_layer.resolve.reader import Reader

MAX_WORDS = 8
_WORD = re.compile(r"^\w+$")


def words(normalized: str) -> list[str]:
    found = [w for w in normalized.split() if _WORD.match(w)]
    kept = [w for w in found if w not in STOPWORDS] or found
    return kept[:MAX_WORDS]


def fulltext_query(normalized: str, graph: Reader, *, any_word: bool = False) -> str | None:
    """The index query for these words (all of them, or any with `any_word`); None if no word."""
    terms = words(normalized)
    return graph.fulltext_query(terms, any_word=any_word) if terms else None


def search(
    graph: Reader, query_name: str, normalized: str, limit: int = 10
) -> list[dict[str, Any]]:
    """Rows of the full-text query `query_name` matching all the words, else any of them.

    A query the index cannot parse finds nothing rather than failing the tool.
    """
    for any_word in (False, True):
        query = fulltext_query(normalized, graph, any_word=any_word)
        if query is None:
            return []
        try:
            rows = graph.read(query_name, {"query": query, "limit": limit})
        except GraphQueryError:
            rows = []
        if rows:
            return rows
    return []
