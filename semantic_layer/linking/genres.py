"""Genres a text names, from the genre vocabulary (`genres.yaml`, data: the graph's genre
names and the words people use for them in several languages).

An entry is the beginning of a word ("comed" for comedy, comedies, comédie, comedia) or, when
it is written in CJK script, a piece found anywhere in the text. Words that belong to a movie
or person mention ("The Rocky Horror Picture Show") are left out by the caller.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache
from pathlib import Path

import yaml

from semantic_layer.linking.mentions import GenreMention
from semantic_layer.linking.tokens import Span
from semantic_layer.normalize import fold

VOCABULARY = Path(__file__).with_name("genres.yaml")
_PUNCT = re.compile(r"[^\w]+")


def _key(text: str) -> str:
    return " ".join(_PUNCT.sub(" ", fold(text)).split())


@cache
def vocabulary(path: Path = VOCABULARY) -> dict[str, tuple[str, ...]]:
    """Genre -> its entries, normalized (folded, punctuation as spaces)."""
    raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    return {genre: tuple(_key(str(entry)) for entry in entries) for genre, entries in raw.items()}


@cache
def _patterns(path: Path = VOCABULARY) -> list[tuple[str, re.Pattern[str]]]:
    found = []
    for genre, entries in vocabulary(path).items():
        for entry in entries:
            if entry.isascii():
                found.append((genre, re.compile(rf"(?<!\w){re.escape(entry)}")))
            else:
                found.append((genre, re.compile(re.escape(entry))))
    return found


def genre_mentions(text: str, taken: Sequence[Span] = ()) -> list[GenreMention]:
    """Each genre `text` names, once, in the order of the text; not inside a `taken` span."""
    folded = fold(text)  # same length as `text` for the scripts we match
    same_length = len(folded) == len(text)
    mentions: dict[str, GenreMention] = {}
    for genre, pattern in _patterns():
        for match in pattern.finditer(_spaced(folded)):
            start, end = match.span()
            end = _word_end(folded, end)
            if same_length and any(s.start <= start < s.end for s in taken):
                continue
            found = GenreMention(
                text=text[start:end] if same_length else match.group(),
                start=start, end=end, genre=genre,
            )  # fmt: skip
            if genre not in mentions or start < mentions[genre].start:
                mentions[genre] = found
            break
    return sorted(mentions.values(), key=lambda m: m.start)


def genre_of(text: str) -> str | None:
    """The one genre `text` is a name of ("comedies", "sci-fi", "película de terror"), if any."""
    found = {m.genre for m in genre_mentions(text)}
    return found.pop() if len(found) == 1 else None


def _spaced(folded: str) -> str:
    """Punctuation as spaces, same length: "sci-fi" reads as "sci fi"."""
    return "".join(c if c.isalnum() or c.isspace() else " " for c in folded)


def _word_end(text: str, end: int) -> int:
    while end < len(text) and text[end].isalnum():
        end += 1
    return end
