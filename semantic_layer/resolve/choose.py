"""Deciding on full-text hits: one clear winner is taken (and said so), otherwise the user picks."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from semantic_layer.resolve.text import covers, similarity

CLEAR = 0.8  # a hit this alike to what was typed ('forest gump' ~ 'forrest gump': 0.96) ...
MARGIN = 0.1  # ... and this much more alike than the runner-up is taken without asking
MAX_CANDIDATES = 6
FLOOR = 0.4  # hits less alike than this are noise ("foo OR 1=1" shares a digit with "8 1/2")


@dataclass(frozen=True)
class Scored:
    row: dict[str, Any]
    score: float


def rank(query: str, rows: Sequence[dict[str, Any]], key: str) -> list[Scored]:
    """Hits ordered by how alike their normalized `key` is to `query`, then popularity order."""
    scored = [Scored(row, similarity(query, row[key] or "")) for row in rows]
    return sorted((s for s in scored if s.score >= FLOOR), key=lambda s: -s.score)


def clear_winner(query: str, ranked: list[Scored], key: str) -> Scored | None:
    if not ranked:
        return None
    best = ranked[0]
    runner_up = ranked[1].score if len(ranked) > 1 else 0.0
    if best.score >= CLEAR and best.score - runner_up >= MARGIN:
        return best
    if len(ranked) == 1 and covers(query, best.row[key] or ""):
        return best
    return None
