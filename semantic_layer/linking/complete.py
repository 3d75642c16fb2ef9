"""Completion of a movie title, a person's name or a genre from what has been typed so far.

Through the graph's own indexes, in the order a person expects: names whose normalized key starts
with the typed text (the `titleNorm` / `nameNorm` indexes; "the mat" finds "The Matrix"), the
most rated or the busiest first; then, for a word anywhere in the name or a misspelling, the
full-text index ("hanks" finds "Tom Hanks"). Genres come from the `Genre` vocabulary. A movie is
offered as "Title (year)", the form every tool takes to pick one of several films.
"""

from __future__ import annotations

from typing import Any, Literal

from semantic_layer.normalize import fold, normalize_name, normalize_title
from semantic_layer.resolve.fulltext import search
from semantic_layer.tools.genre import Genre

Kind = Literal["movie", "person", "genre"]
MAX_LIMIT = 100  # what `completion/complete` may return at once


def complete(graph: Any, kind: Kind, prefix: str, limit: int = 10) -> list[str]:
    """Up to `limit` names of `kind` that complete `prefix`, the likeliest first.

    `graph` is a `Graph` (or anything with `read` and `fulltext_query`); an empty prefix
    offers genres but no movie or person (there is nothing to look up yet).
    """
    limit = max(0, min(limit, MAX_LIMIT))
    if kind == "genre":
        typed = fold(prefix).strip()
        return [g.value for g in Genre if fold(g.value).startswith(typed)][:limit]
    key = normalize_title(prefix) if kind == "movie" else normalize_name(prefix)
    if not key or not limit:
        return []
    found: list[str] = []
    for row in graph.read(f"resolve/{kind}_prefix", {"prefix": key, "limit": limit}):
        _add(found, _label(kind, row))
    if len(found) < limit:
        rows = search(graph, f"resolve/{kind}_fulltext", key, limit * 2)
        labels = [_label(kind, row) for row in rows]
        # a name with a word that starts like the last typed word before a mere misspelling
        last = key.split()[-1]
        labels.sort(key=lambda label: not any(w.startswith(last) for w in _words(label)))
        for label in labels:
            _add(found, label)
    return found[:limit]


def _words(label: str) -> list[str]:
    return normalize_name(label).split()


def _label(kind: Kind, row: dict[str, Any]) -> str:
    if kind == "person":
        return str(row["name"])
    year = row.get("year")
    return f"{row['title']} ({year})" if year else str(row["title"])


def _add(found: list[str], label: str) -> None:
    if label not in found:
        found.append(label)
