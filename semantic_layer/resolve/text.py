"""Checking what the user typed before it reaches a query, and comparing names."""

from __future__ import annotations

import re
import unicodedata
from difflib import SequenceMatcher

from semantic_layer.errors import InvalidInputError

MAX_LENGTH = 200
_CONTROL = re.compile(r"[\x00-\x1f\x7f]+")
_SPACES = re.compile(r"\s+")


def clean_input(text: str | None, what: str) -> str:
    """The text with control characters and extra spaces removed, or `InvalidInputError`."""
    value = _SPACES.sub(" ", _CONTROL.sub(" ", unicodedata.normalize("NFC", text or ""))).strip()
    if not value:
        raise InvalidInputError(f"No {what} was given: say which {what} you mean.")
    if len(value) > MAX_LENGTH:
        raise InvalidInputError(
            f"That {what} is {len(value):,} characters long; give one of at most {MAX_LENGTH}."
        )
    if not any(c.isalnum() for c in value):
        raise InvalidInputError(f"{value!r} has no letters or digits: give a {what}.")
    return value


def similarity(a: str, b: str) -> float:
    """0..1, how alike two normalized keys are ('forest gump' vs 'forrest gump': 0.96)."""
    return SequenceMatcher(None, a, b).ratio()


def covers(query: str, candidate: str, exact_below: int = 0) -> bool:
    """Every word of `query` appears (nearly) in `candidate`: 'tarantino' in 'quentin tarantino'.

    A word shorter than `exact_below` letters must appear as it is ('nolan' in 'christopher
    nolan', but 'seven' not in 'seve')."""
    return held(query, candidate, exact_below) == 1.0


def held(query: str, candidate: str, exact_below: int = 0) -> float:
    """The share of `query`'s letters in words that appear (nearly) in `candidate`, as in
    `covers`: 'harry poter' in 'harry potter and the goblet of fire' 1.0, 'pate' in 'pale
    rider' 0 (four letters: one off is another word)."""
    words = candidate.split()
    typed = query.split()
    total = sum(map(len, typed))
    found = sum(
        len(q)
        for q in typed
        if any(q == w if len(q) < exact_below else similarity(q, w) >= 0.8 for w in words)
    )
    return found / total if total else 1.0  # nothing typed is held anywhere, as `covers` had it
