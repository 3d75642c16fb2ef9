"""Derived data for tag search: `(:Tag {name})-[:TAGS {count}]->(:Movie)`.

`name` is a tag as viewers wrote it, trimmed and lowercased, so "Leonardo DiCaprio" and
"leonardo dicaprio" are one Tag; `count` is how many TAGGED edges of the movie carry a tag with
that name (one edge per user, movie and tag as written). `most_tagged` finds a Tag through the
index on `Tag.name` and reads its few TAGS edges instead of every TAGGED edge; a movie's tags
are its incoming TAGS edges. The counts cover every TAGGED edge in the graph when the import
ends, those of the users the app created included.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

TagCounts = Counter[tuple[str, int]]  # (name, movieId) -> TAGGED edges


def tag_name(tag: str) -> str:
    """The Tag a written tag belongs to (queries match it with `toLower($tag)`)."""
    return tag.strip().lower()


def count_tags(edges: Iterable[Mapping[str, Any]]) -> TagCounts:
    """Counts per (name, movieId) of TAGGED edges given as rows with `tag` and `movieId`."""
    return Counter((tag_name(e["tag"]), e["movieId"]) for e in edges)


def tag_rows(counts: TagCounts) -> list[dict[str, Any]]:
    """One row per TAGS edge, ordered by name then movieId."""
    return [
        {"name": name, "movieId": movie, "count": n} for (name, movie), n in sorted(counts.items())
    ]
