"""Normalized comparisons for scoring: case, accents, articles, years, numbers.

Kept apart from the semantic layer's own normalization on purpose: the harness must not agree
with the code it measures just because it shares a helper with it.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

_YEAR = re.compile(r"\(\s*\d{4}\s*\)")
_ARTICLES = r"the|a|an|el|la|los|las|le|les|l|il|der|die|das"
_TRAILING_ARTICLE = re.compile(rf",\s*(?:{_ARTICLES})\s*$")
_LEADING_ARTICLE = re.compile(rf"^(?:{_ARTICLES})\s+")
_NON_WORD = re.compile(r"[^\w]+")


def fold(text: str) -> str:
    """Case and accents folded, punctuation turned into single spaces."""
    decomposed = unicodedata.normalize("NFKD", text)
    plain = "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()
    return _NON_WORD.sub(" ", plain).strip()


def normalize_name(text: str) -> str:
    """A title or name as a key: 'The Matrix (1999)', 'Matrix, The' and 'matrix' agree."""
    text = _YEAR.sub(" ", text).strip()
    text = _TRAILING_ARTICLE.sub("", unicodedata.normalize("NFKC", text).casefold().strip())
    text = _LEADING_ARTICLE.sub("", text.strip())
    return fold(text)


def same_value(expected: Any, actual: Any) -> bool:
    """One argument compared the way a person would: numbers by value, text by `normalize_name`."""
    if expected is None:
        return actual is None or actual == ""
    if actual is None:
        return False
    if isinstance(expected, bool) or isinstance(actual, bool):
        return expected == actual
    number_e, number_a = _number(expected), _number(actual)
    if number_e is not None and number_a is not None:
        return number_e == number_a
    return normalize_name(str(expected)) == normalize_name(str(actual))


def contains_fact(answer: str, fact: str) -> bool:
    """Whether the folded answer holds the folded fact, not inside a longer Latin word or number.

    "1995" is found in "1995年" and "(1995)" but not in "19956"; "Heat" not in "Heather".
    """
    needle, haystack = fold(fact), fold(answer)
    if not needle:
        return True
    return re.search(rf"(?<![a-z0-9]){re.escape(needle)}(?![a-z0-9])", haystack) is not None


def _number(value: Any) -> float | None:
    if isinstance(value, int | float):
        return float(value)
    try:
        return float(str(value).strip())
    except ValueError:
        return None
