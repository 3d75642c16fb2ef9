"""Normalized keys for matching what people type against stored titles and names.

"matrix", "The Matrix (1999)" and "Matrix, The" all normalize to "matrix".
"""

from __future__ import annotations

import re
import unicodedata

_YEAR = re.compile(r"\s*\(\s*\d{4}\s*\)\s*$")
_ARTICLES = (
    "the",
    "a",
    "an",
    "les",
    "la",
    "le",
    "l",
    "il",
    "el",
    "los",
    "las",
    "das",
    "der",
    "die",
)
_TRAILING = re.compile(r",\s*(" + "|".join(_ARTICLES) + r")$")
_LEADING = re.compile(r"^(" + "|".join(_ARTICLES) + r")\s+")
_PUNCT = re.compile(r"[^\w\s]|_")
_SPACES = re.compile(r"\s+")


def fold(text: str) -> str:
    """Lower-case, accents removed: 'Léon' -> 'leon'."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


def normalize_title(text: str) -> str:
    """The matching key of a movie title: no year, no leading/trailing article, no punctuation."""
    value = fold(text).strip()
    value = _YEAR.sub("", value)
    value = _TRAILING.sub("", value.strip())
    value = value.replace("&", " and ")
    value = _SPACES.sub(" ", _PUNCT.sub(" ", value)).strip()
    value = _LEADING.sub("", value)
    return value


def normalize_name(text: str) -> str:
    """The matching key of a person's name: case, accents and punctuation folded."""
    return _SPACES.sub(" ", _PUNCT.sub(" ", fold(text))).strip()


def extract_year(text: str) -> int | None:
    """A trailing '(1999)' in what the user typed, if any."""
    match = _YEAR.search(text.strip())
    return int(match.group(0).strip(" ()")) if match else None
