"""What a turn was about: the movies and people its tool results resolved.

A follow-up ("Who directed it?") needs the movie of the last turn, and the prose answer does
not always name it. So each finished turn keeps the labels its tools resolved (a movie's title
and year, a person's name, the movie a recommendation started from, the candidates offered),
and the next turn's prompt names them (`agent.prompt.remembered_answer`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from semantic_layer.tools.result import ToolResult

MAX_ENTITIES = 4


def resolved_entities(results: Iterable[ToolResult | None]) -> list[str]:
    """The labels of what `results` resolved, in order, without repeats."""
    found: list[str] = []
    for result in results:
        if result is not None:
            found += _labels(result)
    return list(dict.fromkeys(found))[:MAX_ENTITIES]


def _labels(result: ToolResult) -> list[str]:
    if result.kind == "candidates":
        return [" or ".join(c.label for c in result.candidates)] if result.candidates else []
    data = result.data if isinstance(result.data, dict) else {}
    if result.kind in ("movie", "rating"):
        return [_movie_label(data)] if data.get("title") else []
    if result.kind == "person":
        return [str(data["name"])] if data.get("name") else []
    if result.kind == "recommendations":
        basis = data.get("basis") or {}
        return [str(basis["movie"])] if isinstance(basis, dict) and basis.get("movie") else []
    return []


def _movie_label(data: dict[str, Any]) -> str:
    year = data.get("year")
    return f"{data['title']} ({year})" if year else str(data["title"])
