"""A text as words with their places, for finding names in it.

Each word keeps where it stands in the text (so a mention can say what was written), its
folded form (lower case, no accents) and whether it was written with a capital. Spans of one to
`MAX_SPAN` words are what titles and names are compared against.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from semantic_layer.normalize import fold

MAX_SPAN = 9  # the longest title compared, in words
# kana, CJK ideographs, hangul: scripts written without spaces, so where a run of them meets
# letters of another script a word ends ("和Life of Pi" is "和", "Life", "of", "Pi")
_UNSPACED = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff66-\uff9f"
_WORD = re.compile(rf"\d+(?:[.,]\d+)+|[{_UNSPACED}]+|[^\W{_UNSPACED}]+")  # "3.5" is one word
_SENTENCE_END = re.compile(r"[.!?…\u3002\uff01\uff1f]\s*$")
QUESTION_MARKS = ("?", "\uff1f")  # and the full-width one of Chinese and Japanese


def asks(text: str) -> bool:
    """Whether the text is a question: it ends with a question mark."""
    return text.rstrip().endswith(QUESTION_MARKS)


@dataclass(frozen=True)
class Word:
    text: str  # as written
    start: int
    end: int
    folded: str
    capital: bool  # written with an upper-case first letter
    sentence_start: bool  # the first word of the text or of a sentence


@dataclass(frozen=True)
class Span:
    first: int  # index of the first word
    last: int  # index of the last word (inclusive)
    start: int  # character offsets in the text
    end: int
    text: str  # as written, punctuation between the words included

    @property
    def size(self) -> int:
        return self.last - self.first + 1

    def overlaps(self, other: Span) -> bool:
        return self.first <= other.last and other.first <= self.last

    def inside(self, other: Span) -> bool:
        return other.first <= self.first and self.last <= other.last


def words(text: str) -> list[Word]:
    """The words of `text`, in order."""
    found: list[Word] = []
    for match in _WORD.finditer(text):
        word = match.group()
        before = text[: match.start()]
        found.append(
            Word(
                text=word,
                start=match.start(),
                end=match.end(),
                folded=fold(word),
                capital=word[:1].isupper(),
                sentence_start=not before.strip() or bool(_SENTENCE_END.search(before)),
            )
        )
    return found


def spans(text: str, found: list[Word], sizes: range | None = None) -> Iterator[Span]:
    """Every run of consecutive words (of the given sizes, default 1..`MAX_SPAN`)."""
    sizes = sizes or range(1, MAX_SPAN + 1)
    for first in range(len(found)):
        for size in sizes:
            last = first + size - 1
            if last >= len(found):
                break
            start, end = found[first].start, found[last].end
            yield Span(first, last, start, end, text[start:end])


def all_lower(found: list[Word]) -> bool:
    """Whether the text was written without capitals (then capitals tell nothing)."""
    return not any(w.capital for w in found)
