"""Keeps a Final Answer to what this question's tools returned, and short.

A small model copies: films from the prompt's own examples (asked about Spielberg, it appended
the Sidney Lumet example's films) or from its memory. `Grounding` finds the first movie in an
answer that no source holds — a `Title (year)` whose year or last word appears in no
Observation, question or earlier turn, or a name from the examples' Observations that none
holds — and `cut` ends the answer before it, as a sentence. The loop stops generating there.

`sentence_end` finds where a long answer may stop cleanly: at a sentence end past a soft length,
so an answer is one or two sentences and never cut mid-word.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from typing import Any

MIN_WORDS = 3  # a cut that leaves fewer words keeps the whole answer
_YEAR = re.compile(r"\((1[89]\d\d|20\d\d)\)")
# where a list item begins: after punctuation, a connector word, or a verb introducing a list
_ITEM_START = re.compile(
    r"(?:[,;:!?]|(?<!\b[A-Z])(?<!\bDr|\bMr|\bSt|\bvs)\.(?=\s))\s+"
    r"|\s+(?:and|or|und|oder|et|ou|y|o|e|including|like|such as)\s+",
    re.IGNORECASE,
)
_TRAILING = re.compile(
    r"(?:[\s,;:\-\u2013\u2014(]+|\s+(?:and|or|und|oder|et|ou|y|o|e|including|like|such as|as well as"
    r"|plus|among them|notamment|darunter|como|come|comme|wie|tra cui|incluidas?|incluyendo)"
    r")+$",
    re.IGNORECASE,
)
_WORD = re.compile(r"\w+")
_ENDS_SENTENCE = re.compile(r"[.!?…]$")
_ABBREVIATION = re.compile(
    r"(?:\b[A-Z]|\b(?:Dr|Mr|Mrs|Ms|St|Jr|Sr|vs|Vol|No|Mt|Ft|Lt|Sgt|Capt|Prof|Pt|Ep))\.$"
)
_SENTENCE_GAP = re.compile(r"(?<=[.!?])\s")


def example_names(instructions: str) -> frozenset[str]:
    """The titles and names in the Observations of the prompt's examples."""
    names: set[str] = set()
    for line in instructions.splitlines():
        head, _, body = line.partition("Observation:")
        if head.strip() or not body.strip().startswith("{"):
            continue
        try:
            names.update(_strings_under(json.loads(body), ("title", "name")))
        except json.JSONDecodeError:
            continue
    return frozenset(name for name in names if len(name) > 2)


class Grounding:
    """What one question's answer may name: the text of its sources (Observations, question,
    earlier turns), and the example names that none of them holds."""

    def __init__(self, sources: Iterable[str], examples: Iterable[str] = ()) -> None:
        self._text = "\n".join(sources).casefold()
        self._words = set(_WORD.findall(self._text))
        self._foreign = [
            re.compile(rf"(?<!\w){re.escape(name)}(?!\w)", re.IGNORECASE)
            for name in examples
            if name.casefold() not in self._text
        ]

    def first_unsupported(self, answer: str, *, final: bool = True) -> int | None:
        """Where the first movie no source holds begins in `answer` (None: all are held).
        While the answer is still arriving (`final=False`) a name at its very end may be the
        start of a longer one, so it does not count yet."""
        found = list(self._unsupported_years(answer))
        for pattern in self._foreign:
            for match in pattern.finditer(answer):
                if final or match.end() < len(answer):
                    found.append(_item_start(answer, match.start()))
                    break
        return min(found, default=None)

    def should_stop(self, partial: str) -> bool:
        """Whether an answer still arriving already names a movie no source holds, after
        something worth keeping (so generating more is wasted)."""
        start = self.first_unsupported(partial, final=False)
        return start is not None and _worth_keeping(_kept(partial, start))

    def cut(self, answer: str) -> str:
        """`answer` up to its first unsupported movie, ended as a sentence; unchanged when all
        are held, or when too little would be left (`MIN_WORDS`)."""
        start = self.first_unsupported(answer)
        if start is None:
            return answer
        kept = _kept(answer, start)
        if not _worth_keeping(kept):
            return answer
        return kept if _ENDS_SENTENCE.search(kept) else f"{kept}."

    def _unsupported_years(self, answer: str) -> Iterator[int]:
        """Where each `Title (year)` item begins (after a comma, "and", ...) whose year, or the
        title's last word, no source holds."""
        for year in _YEAR.finditer(answer):
            start = _item_start(answer, year.start())
            words = _WORD.findall(answer[start : year.start()].casefold())
            if year.group(1) not in self._text or (words and words[-1] not in self._words):
                yield start


def list_end(before: str, piece: str, items: int) -> int | None:
    """How much of `piece` to keep so a list of `Title (year)` items ends after its `items`-th:
    once that item is followed by a comma (the list goes on); None otherwise."""
    text = before + piece
    years = list(_YEAR.finditer(text))
    if len(years) < items:
        return None
    end = years[items - 1].end()
    if end < len(before) or not text.startswith(",", end):
        return None
    return end - len(before)


def sentence_end(before: str, piece: str, soft_chars: int) -> int | None:
    """How much of `piece` to keep so the answer ends at a sentence end, once `before + piece`
    is past `soft_chars`; None while it may go on. Initials and "Dr." do not end a sentence."""
    text = before + piece
    if len(text) <= soft_chars:
        return None
    for gap in _SENTENCE_GAP.finditer(text, max(len(before), soft_chars)):
        if not _ABBREVIATION.search(text[: gap.start()]):
            return gap.start() - len(before)
    return None


def _worth_keeping(kept: str) -> bool:
    """At least a few words: "I." or "Try" is no answer (the whole one is kept then)."""
    return len(_WORD.findall(kept)) >= MIN_WORDS


def _kept(answer: str, start: int) -> str:
    return _TRAILING.sub("", answer[:start].rstrip())


def _item_start(answer: str, end: int) -> int:
    starts = [m.end() for m in _ITEM_START.finditer(answer, 0, end)]
    return starts[-1] if starts else 0


def _strings_under(value: Any, keys: tuple[str, ...]) -> Iterator[str]:
    if isinstance(value, dict):
        for key, item in value.items():
            if key in keys and isinstance(item, str):
                yield item
            else:
                yield from _strings_under(item, keys)
    elif isinstance(value, list):
        for item in value:
            yield from _strings_under(item, keys)
