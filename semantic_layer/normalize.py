"""Normalized keys for matching what people type against stored titles and names.

"matrix", "The Matrix (1999)" and "Matrix, The" all normalize to "matrix"; accents, "&"/"and"
and small numbers written as digits, words or Roman numerals agree too ("12 Monkeys" and
"Twelve Monkeys" are "twelve monkeys", "Rocky II" and "Rocky 2" are "rocky two").
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import yaml

ALIAS_SEPARATOR = " | "  # between a movie's aliases in Movie.aliasText (its full-text field)
_YEAR = re.compile(r"\s*\(\s*\d{4}\s*\)\s*$")
_WORDS = yaml.safe_load(Path(__file__).with_name("title_words.yaml").read_text(encoding="utf-8"))
_ARTICLES: list[str] = _WORDS["articles"]
_TRAILING = re.compile(r",\s*(" + "|".join(_ARTICLES) + r")$")
_LEADING = re.compile(r"^(" + "|".join(_ARTICLES) + r")\s+")
_PUNCT = re.compile(r"[^\w\s]|_")
_SPACES = re.compile(r"\s+")
_POSSESSIVE = re.compile(r"(\w)['\u2019]s\b")  # "Pan's Labyrinth" and "Pans Labyrinth" agree
_HALF = re.compile(r"\s*\b1\s*[/\u2044]\s*2\b")  # "8 1/2", "8½": "8 and a half"
NUMBER_WORDS: dict[str, str] = (
    {str(n): word for n, word in enumerate(_WORDS["numbers"])} | _WORDS["tens"] | _WORDS["roman"]
)
#: the articles a title may open or close with (see title_words.yaml)
ARTICLES: frozenset[str] = frozenset(_ARTICLES)
#: the full-text engine's stop words (see title_words.yaml)
STOPWORDS: frozenset[str] = frozenset(_WORDS["stopwords"])


def fold(text: str) -> str:
    """Lower-case, accents removed: 'Léon' -> 'leon'."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


def normalize_title(text: str) -> str:
    """The matching key of a movie title: `title_words`, with small numbers as words."""
    return numbers_as_words(title_words(text))


def numbers_as_words(words: str) -> str:
    """`title_words` output with digits and Roman numerals of small numbers spelled out."""
    return " ".join(NUMBER_WORDS.get(word, word) for word in words.split())


def title_words(text: str) -> str:
    """A title's words as typed: no year, no leading/trailing article, no punctuation."""
    value = fold(text.replace("\u00bd", " 1/2")).strip()
    value = _YEAR.sub("", value)
    value = _HALF.sub(" and a half", value)
    value = _TRAILING.sub("", value.strip())
    value = value.replace("&", " and ")
    value = _POSSESSIVE.sub(r"\1s", value)
    value = _SPACES.sub(" ", _PUNCT.sub(" ", value)).strip()
    value = _LEADING.sub("", value)
    return value


def normalize_name(text: str) -> str:
    """The matching key of a person's name: case, accents, punctuation and spaces folded, and
    initials written together ("J. F. Lawton", "J.F. Lawton" and "JF Lawton" agree)."""
    joined: list[str] = []
    initials = ""
    for word in _PUNCT.sub(" ", fold(text)).split():
        if len(word) == 1 and word.isalpha():
            initials += word
            continue
        if initials:
            joined.append(initials)
            initials = ""
        joined.append(word)
    return " ".join([*joined, initials] if initials else joined)


def extract_year(text: str) -> int | None:
    """A trailing '(1999)' in what the user typed, if any."""
    match = _YEAR.search(text.strip())
    return int(match.group(0).strip(" ()")) if match else None
