"""The numbers a text writes outside its names and years: what a number the user states (a
rating, `semantic_layer.linking.arguments.STATED_NUMBER`) may be.

- In digits (`digits`): "4", "4.5", "4,5" (a decimal comma), not the 5 of "/5" nor the 7 of
  "Se7en".
- In words (`spelled`), read by a well-kept parser (text2num) in the languages it knows, once
  the text's language is known: "trois étoiles", "zwei Sterne", "three and a half". A word
  that is a number is often something else too ("un film", "one of my favourites", "ein
  Klassiker"), so these are shown to the model with what the question writes, and the model
  reads whether they rate (`agent.grammar`); digits are the rating as written.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from difflib import SequenceMatcher

from text_to_num import alpha2digit

from semantic_layer.linking.mentions import Linked, SpelledNumber
from semantic_layer.linking.tokens import asks

_NUMBER = re.compile(r"(?<![\w.,/])\d+(?:[.,]\d+)?(?![\w]|[.,]\d)")  # not "/5", "Se7en"
_WORD = re.compile(r"\S+")


def digits(text: str, taken: Sequence[tuple[int, int]]) -> list[float]:
    """The numbers written in digits outside the spans in `taken` ("Heat (1995) 4.5 stars": 4.5,
    with the title and its year taken)."""
    return [
        _number(match.group())
        for match in _NUMBER.finditer(text)
        if not any(start <= match.start() < end for start, end in taken)
    ]


def _number(written: str) -> float:
    """A decimal comma ("4,5") is a decimal point; a comma before three digits ("1,000")
    separates thousands."""
    whole, comma, rest = written.partition(",")
    if comma and len(rest) == 3:
        return float(whole + rest)
    return float(written.replace(",", "."))


def spelled(text: str, taken: Sequence[tuple[int, int]], language: str) -> list[SpelledNumber]:
    """The numbers `text` writes in words of `language`, outside the spans in `taken` (titles,
    names, years: "Seven Samurai" is a film), each with the words that write it. Empty in a
    language the parser does not know. Every number word counts, however small ("une étoile"),
    as the parser's own threshold would keep "one" and "un" for articles and pronouns."""
    masked = _masked(text, taken)
    try:
        converted = alpha2digit(masked, language, threshold=0)
    except ValueError:  # a language text2num does not read
        return []
    before = [m.group() for m in _WORD.finditer(masked)]
    after = [m.group() for m in _WORD.finditer(converted)]
    found: list[SpelledNumber] = []
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, before, after, autojunk=False).get_opcodes():
        if tag != "replace":
            continue
        written = " ".join(before[i1:i2])
        for value in digits(" ".join(after[j1:j2]), []):
            found.append(SpelledNumber(value=value, text=written.strip(".,;:!?")))
    return found


def with_spelled(linked: Linked, text: str, language: str) -> Linked:
    """`linked` with the numbers `text` writes in words of `language` (`spelled`), outside the
    names and years it found. A statement that writes one may rate in words as one that names
    a movie may, just as one that writes digits may: "Such a classic. Give it four stars" rates
    the film just discussed, "Cinco estrellas para El Padrino" a title the graph holds in
    English only (the model writes it)."""
    taken = [*linked.name_spans(), *((y.start, y.end) for y in linked.years)]
    found = spelled(text, taken, language)
    rates = linked.rates_in_words or (bool(found) and not asks(text))
    return linked.model_copy(update={"spelled": found, "rates_in_words": rates})


def _masked(text: str, taken: Sequence[tuple[int, int]]) -> str:
    """`text` with the spans in `taken` blanked out, so no word of a title is read."""
    chars = list(text)
    for start, end in taken:
        chars[start:end] = " " * (end - start)
    return "".join(chars)
