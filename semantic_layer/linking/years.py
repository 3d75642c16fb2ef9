"""Years and decades a text names: "1995", "the 1980s", "'90s", "90s" become ranges of years.

Only digits are read (no words), so this works the same in every language. Several years or
decades in one text are one range, from the first to the last ("from 1960 to 1975",
"1960-1975", "80s or 90s").
"""

from __future__ import annotations

import re

from semantic_layer.linking.mentions import YearsMention

FIRST_YEAR, LAST_YEAR = 1870, 2100
_YEAR = re.compile(r"(?<![\w.])(1[89]\d\d|20\d\d)(s)?(?!\w|\.\d)")  # a full stop may end it
_SHORT_DECADE = re.compile(r"(?<![\w.])['\u2019]?([0-9]0)s(?!\w)")


def years_mentions(text: str) -> list[YearsMention]:
    """Each year or decade in `text`, in order; a decade spans its ten years."""
    found: list[YearsMention] = []
    for match in _YEAR.finditer(text):
        year = int(match.group(1))
        if not FIRST_YEAR <= year <= LAST_YEAR:
            continue
        decade = match.group(2) is not None and year % 10 == 0
        last = year + 9 if decade else year
        found.append(_mention(match, year, last))
    for match in _SHORT_DECADE.finditer(text):
        tens = int(match.group(1))
        first = (2000 if tens <= 10 else 1900) + tens
        found.append(_mention(match, first, first + 9))
    return sorted(found, key=lambda m: m.start)


def _mention(match: re.Match[str], first: int, last: int) -> YearsMention:
    return YearsMention(
        text=match.group(), start=match.start(), end=match.end(), first=first, last=last
    )


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
