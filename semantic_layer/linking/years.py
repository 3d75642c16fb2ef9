"""Years and decades a text names: "1995", "the 1980s", "'90s", "the sixties", "anni 90" become
ranges of years, and so does "recent": the graph's last years, up to its latest movie.

Digits are read the same in every language; the words people use for decades ("sixties",
"achtziger"), for "the years of" before a number ("années 80", "anos 2000"), for that number's
tens ("los años setenta") and for "recent" are data, in `years.yaml` ("années 80 et 90": one
"the years of" before several decades).
Several years or decades in one text are one range, from the first to the last ("from 1960 to
1975", "1960-1975", "80s or 90s").
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import yaml

from semantic_layer.linking.mentions import YearsMention
from semantic_layer.normalize import fold

VOCABULARY = Path(__file__).with_name("years.yaml")
FIRST_YEAR, LAST_YEAR = 1870, 2100
_DECADE = r"['\u2019]?\d+0"  # "80", "'80", "2000" after "the years of"
# a decade's ending is inflected like any word ("2000ern", "80ers"): up to two letters after it
_INFLECTION = r"[^\W\d_]{0,2}"


@dataclass(frozen=True)
class _Patterns:
    year: re.Pattern[str]  # "1995", "1990s", "1990er", "2000ern"
    short_decade: re.Pattern[str]  # "90s", "'90s", "80er"
    decade_of: re.Pattern[str]  # "annees 80", "anos 2000", "annees 80 et 90", "anos setenta":
    # decades after "the years of" (and up to two short words: "decada de los"), the later ones
    # joined by a short word or a sign ("et", "/")
    decade: re.Pattern[str]  # one decade inside `decade_of`: its digits or its tens in words
    tens: dict[str, int]  # "setenta" -> 1970
    words: tuple[tuple[re.Pattern[str], int], ...]  # "sixties" -> 1960
    recent: re.Pattern[str]  # "recent", "neueste"
    recent_years: int  # how many of the graph's last years "recent" spans


@cache
def _patterns(path: Path = VOCABULARY) -> _Patterns:
    raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    endings, before = _either(raw["endings"]), _either(raw["decade_of"])
    tens = {
        _fold_in_place(str(word)): int(decade)
        for decade, entries in raw["tens"].items()
        for word in entries
    }
    # the longest first, so that "soixante-dix" is not read as "soixante"
    longest_first: list[str] = sorted(tens, key=len, reverse=True)
    tens_words = _either(longest_first)
    decade = rf"(?:({_DECADE})|({tens_words}){_INFLECTION})"  # its digits, or its tens in words
    words = tuple(
        (re.compile(rf"(?<!\w){re.escape(_fold_in_place(str(word)))}\w*"), int(decade))
        for decade, entries in raw["decades"].items()
        for word in entries
    )
    return _Patterns(
        year=re.compile(rf"(?<![\w.])(1[89]\d\d|20\d\d)((?:{endings}){_INFLECTION})?(?!\w|\.\d)"),
        short_decade=re.compile(rf"(?<![\w.])['\u2019]?([0-9]0)(?:{endings}){_INFLECTION}(?!\w)"),
        decade_of=re.compile(
            rf"(?<!\w)(?:{before})\w*(?:\s+[^\W\d_]{{1,3}}){{0,2}}"
            rf"\s+{decade}(?:\s*[^\s\d]{{1,3}}\s*{decade})*(?!\w)"
        ),
        decade=re.compile(rf"(?<![\w'\u2019]){decade}"),
        tens=tens,
        words=words,
        recent=re.compile(rf"(?<!\w)(?:{_either(raw['recent']['words'])})\w*"),
        recent_years=int(raw["recent"]["years"]),
    )


def _either(entries: Sequence[object]) -> str:
    """A regex alternation of vocabulary entries, folded like the text."""
    return "|".join(re.escape(_fold_in_place(str(entry))) for entry in entries)


def years_mentions(
    text: str, latest_year: Callable[[], int | None] | None = None
) -> list[YearsMention]:
    """Each year or decade in `text`, in order; a decade spans its ten years. `latest_year`:
    the year of the graph's latest movie, asked only when the text says "recent" (without it,
    "recent" is not a range)."""
    patterns = _patterns()
    folded = _fold_in_place(text)
    found: list[YearsMention] = []
    for match in patterns.decade_of.finditer(folded):
        starts = [_decade_of(one, patterns.tens) for one in patterns.decade.finditer(match.group())]
        firsts = [first for first in starts if first is not None]
        if firsts:
            found.append(_mention(text, match, min(firsts), max(firsts) + 9))
    for match in patterns.year.finditer(folded):
        year = int(match.group(1))
        if not FIRST_YEAR <= year <= LAST_YEAR or _inside(match, found):
            continue
        decade = match.group(2) is not None and year % 10 == 0
        found.append(_mention(text, match, year, year + 9 if decade else year))
    for match in patterns.short_decade.finditer(folded):
        first = _decade_start(match.group(1))
        if first is not None and not _inside(match, found):
            found.append(_mention(text, match, first, first + 9))
    for pattern, first in patterns.words:
        for match in pattern.finditer(folded):
            found.append(_mention(text, match, first, first + 9))
    if latest_year is not None and (recent := patterns.recent.search(folded)):
        last = latest_year()
        if last is not None:
            found.append(_mention(text, recent, last - patterns.recent_years + 1, last))
    return sorted(found, key=lambda m: m.start)


def _decade_of(found: re.Match[str], tens: dict[str, int]) -> int | None:
    """The first year of one decade `decade_of` holds: "90", "2000" or "setenta"."""
    digits, words = found.group(1, 2)
    return tens[words] if words else _decade_start(digits.lstrip("'\u2019"))


def _decade_start(digits: str) -> int | None:
    """The first year of a decade written "90" (1990), "10" (2010) or "1990"; None for other
    numbers ("100", "3000")."""
    tens = int(digits)
    if tens < 100:
        return (2000 if tens <= 10 else 1900) + tens
    return tens if FIRST_YEAR <= tens <= LAST_YEAR and len(digits) == 4 else None


def _fold_in_place(text: str) -> str:
    """`text` folded character by character, so offsets stay those of `text`."""
    out = []
    for char in text:
        folded = fold(char)
        out.append(folded if len(folded) == 1 else char.lower())
    return "".join(out)


def _inside(match: re.Match[str], found: list[YearsMention]) -> bool:
    return any(m.start <= match.start() < m.end for m in found)


def _mention(text: str, match: re.Match[str], first: int, last: int) -> YearsMention:
    start, end = match.span()
    return YearsMention(text=text[start:end], start=start, end=end, first=first, last=last)


def as_range(found: list[YearsMention], text: str) -> list[YearsMention]:
    """`found` (mentions in `text`) as one mention spanning from its first year to its last
    (unchanged when it holds fewer than two)."""
    if len(found) < 2:
        return found
    first, last = found[0], found[-1]
    return [
        YearsMention(
            text=text[first.start : last.end],
            start=first.start,
            end=last.end,
            first=min(m.first for m in found),
            last=max(m.last for m in found),
        )
    ]
