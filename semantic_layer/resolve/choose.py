"""Deciding on full-text hits: one clear winner is taken (and said so), otherwise the user picks.

A hit is compared by the best of its names (a movie's title and its aliases). It is taken
without asking only when it is clearly the one: very alike to what was typed, well ahead of the
runner-up, and what was typed is long enough that one letter off is a typo rather than another
word ("Seven" is not "Seve": five letters ask back); or it is the only hit and holds every word
typed, short words exactly ("Shawshank", "Nolan"). Otherwise the hits offered as a choice are
those holding most of what was typed, word by word ("harry poter": the Harry Potter films); a hit
only alike letter by letter is another title, not a misspelling of this one ("Der Pate" is not
*Pale Rider*, "o rei leao" not *Take the Lead*), so nothing is offered and the tool says the
title is not in the graph.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from semantic_layer.resolve.text import covers, held, similarity

CLEAR = 0.85  # a hit this alike to what was typed ('forest gump' ~ 'forrest gump': 0.96) ...
MARGIN = 0.1  # ... and this much more alike than the runner-up is taken without asking
MIN_LENGTH = 6  # letters typed, at least, for a fuzzy hit to be taken without asking
MAX_CANDIDATES = 6
FLOOR = 0.4  # hits less alike than this are noise ("foo OR 1=1" shares a digit with "8 1/2")
HELD = 0.5  # a hit offered as a choice holds at least this share of the letters typed, by word


@dataclass(frozen=True)
class Scored:
    row: dict[str, Any]
    score: float


def names(row: dict[str, Any], key: str) -> list[str]:
    """The normalized names of a hit under `key`: one string, or a list of them."""
    value = row[key]
    return [n or "" for n in value] if isinstance(value, list) else [value or ""]


def rank(query: str, rows: Sequence[dict[str, Any]], key: str) -> list[Scored]:
    """Hits ordered by how alike their closest name is to `query`, then popularity order."""
    scored = [Scored(row, max(similarity(query, n) for n in names(row, key))) for row in rows]
    return sorted((s for s in scored if s.score >= FLOOR), key=lambda s: -s.score)


def clear_winner(query: str, ranked: list[Scored], key: str) -> Scored | None:
    if not ranked:
        return None
    best = ranked[0]
    runner_up = ranked[1].score if len(ranked) > 1 else 0.0
    long_enough = len(query.replace(" ", "")) >= MIN_LENGTH
    if long_enough and best.score >= CLEAR and best.score - runner_up >= MARGIN:
        return best
    if len(ranked) == 1 and any(covers(query, n, MIN_LENGTH) for n in names(best.row, key)):
        return best  # the only hit, holding every word typed ("Shawshank", "Nolan")
    return None


def offered(query: str, ranked: list[Scored], key: str) -> list[Scored]:
    """The hits to offer as a choice when none is clearly the one: those with a name holding
    at least `HELD` of what was typed, word by word (`held`, short words as they are)."""
    kept = [s for s in ranked if any(held(query, n, MIN_LENGTH) >= HELD for n in names(s.row, key))]
    return kept[:MAX_CANDIDATES]
