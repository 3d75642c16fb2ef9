"""What a turn was about: the movies and people its tool results resolved.

A follow-up ("Who directed it?") needs the movie of the last turn, and the prose answer does
not always name it. So each finished turn keeps the labels its tools resolved (a movie's title
and year, a person's name, the movie a recommendation started from, the candidates offered),
and the result keeps them (`AgentResult.entities`) for front ends and the evaluation.
"""

from __future__ import annotations

from collections.abc import Iterable

from semantic_layer.tools.payloads import Film, PersonCard, Recommendations
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
    data = result.data
    if isinstance(data, Film):  # a movie card or a stored rating
        return [data.label] if data.title else []
    if isinstance(data, PersonCard):
        return [data.name] if data.name else []
    if isinstance(data, Recommendations):
        return [data.basis.movie] if data.basis.movie else []
    return []
