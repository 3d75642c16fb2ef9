"""MovieLens titles the way people say them, and the other names a movie goes by.

MovieLens packs every name of a movie into one string, with articles moved to the end:
`Seven (a.k.a. Se7en) (1995)`, `Amelie (Fabuleux destin d'Amélie Poulain, Le) (2001)`,
`Léon: The Professional (a.k.a. The Professional) (Léon) (1994)`. `split_title` takes it apart:

- the year is the trailing `(1995)` (a series' `(2016-)` gives 2016);
- every other trailing group in parentheses is an alias: an `a.k.a.` name or the
  original-language title, with its article moved back ("Fabuleux destin d'Amélie Poulain, Le"
  -> "Le Fabuleux destin d'Amélie Poulain"). Groups inside a title stay (`(500) Days of Summer`,
  `Evangelion: 3.0 You Can (Not) Redo`), and so does a trailing group that continues the title
  (`Hommage à Zgougou (et salut à Sabine Mamou)`, `Birdman: Or (The Unexpected Virtue of
  Ignorance)`); the name before an alternative title's "or" is an alias too ("Birdman",
  "Dr. Strangelove");
- the display title is the part before the groups, article moved back: MovieLens puts first the
  name the movie was released under in English, which is the name its users know ("Seven",
  "Léon: The Professional", "Twelve Monkeys", "Das Boot"). One exception: when that name is a
  name taken from a longer original title and written there with accents English keeps (acute,
  grave, diaeresis, cedilla, tilde), the accents are kept ("Amelie" from "Le Fabuleux destin
  d'Amélie Poulain" shows as "Amélie"). A translated title of the same length, and the long
  vowels of romanized Japanese, stay as the distributor spelled them ("Rashomon", "Sanjuro").
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Any

from semantic_layer.normalize import ALIAS_SEPARATOR, normalize_title

_YEAR = re.compile(r"\s*\((\d{4})(?:[-\u2013]\d{0,4})?\)\s*$")
# Articles MovieLens moves to the end of a title, in the languages its catalogue uses.
ARTICLES = (
    "The", "A", "An", "Les", "La", "Le", "L'", "Il", "Lo", "Gli", "I", "Das", "Der", "Die",
    "Den", "Det", "De", "En", "Da", "El", "Los", "Las", "Un", "Une", "Una", "Uno", "Ein", "Eine",
    "O", "Os", "As",
)  # fmt: skip
_TRAILING_ARTICLE = re.compile(
    r"^(?P<rest>.+), (?P<article>" + "|".join(map(re.escape, ARTICLES)) + r")$"
)
_AKA = re.compile(r"^(?:a\.?\s?k\.?\s?a\.?|aka)\s+", re.IGNORECASE)
# A trailing group starting with one of these continues the title instead of renaming it.
_CONTINUATIONS = frozenset({"and", "et", "und", "y", "e", "or", "ou"})
# "Dr. Strangelove or: How I Learned...", "Salo, or The 120 Days...", "Birdman: Or (The
# Unexpected...)": the name before "or" is an alias, and a group after "Or" is the title's own.
_ALTERNATIVE = re.compile(r"^(?P<short>.+?)(?:[,:]\s+or\s+|\s+or:\s+)", re.IGNORECASE)
_ENDS_IN_OR = re.compile(r"[,:]\s+or$", re.IGNORECASE)
_SPACES = re.compile(r"\s+")
# Combining marks English spellings keep: grave, acute, tilde, diaeresis, cedilla.
_ENGLISH_MARKS = frozenset("\u0300\u0301\u0303\u0308\u0327")
_WORD = re.compile(r"\w+")


@dataclass(frozen=True)
class MovieTitle:
    """A MovieLens title taken apart: what to show, the year, and the other names."""

    title: str
    year: int | None
    aliases: tuple[str, ...] = ()
    main: str = ""  # the first name as MovieLens writes it, article moved back ("Amelie")
    written: tuple[str, ...] = ()  # every other name as written, spellings of one name too


def split_year(raw: str) -> tuple[str, int | None]:
    """`Heat (1995)` -> (`Heat`, 1995); a title without a year keeps None."""
    text = _SPACES.sub(" ", raw).strip()
    match = _YEAR.search(text)
    if not match:
        return text, None
    return text[: match.start()].strip(), int(match.group(1))


def split_title(raw: str) -> MovieTitle:
    """The display title, year and aliases of a MovieLens title string (see the module)."""
    text, year = split_year(raw)
    head, groups = _trailing_groups(text)
    main = _move_article(head)
    names = [_move_article(_AKA.sub("", group)) for group in groups]
    title = _accents_from(main, names)
    alternative = _ALTERNATIVE.match(title)
    if alternative:
        names.append(alternative.group("short"))
    aliases: list[str] = []
    seen = {_key(title)}
    for name in [main, *names]:
        if name and _key(name) not in seen:
            seen.add(_key(name))
            aliases.append(name)
    return MovieTitle(title, year, tuple(aliases), main, tuple(names))


def alias_rows(title: MovieTitle) -> list[dict[str, Any]]:
    """The aliases as graph rows (`title`, `titleNorm`), one per lookup key."""
    rows = {normalize_title(a): a for a in reversed(title.aliases)}  # the first spelling wins
    return [{"title": a, "titleNorm": key} for key, a in reversed(rows.items()) if key]


def alias_text(title: MovieTitle) -> str | None:
    """The aliases as one string, for the movie's full-text index (None without aliases)."""
    return ALIAS_SEPARATOR.join(title.aliases) or None


def display_title(raw: str) -> tuple[str, int | None]:
    """The stored title and year for a MovieLens title string."""
    split = split_title(raw)
    return split.title, split.year


def restore_article(title: str) -> str:
    """`Matrix, The` -> `The Matrix`."""
    return _move_article(title)


def _trailing_groups(text: str) -> tuple[str, list[str]]:
    """`Seven (a.k.a. Se7en)` -> (`Seven`, [`a.k.a. Se7en`]); groups are kept in order."""
    groups: list[str] = []
    while text.endswith(")"):
        start = _opening(text)
        if start <= 0 or text[start - 1] != " ":
            break
        head, group = text[:start].rstrip(), text[start + 1 : -1].strip()
        first = group.split(" ", 1)[0]
        if not head or not group or first in _CONTINUATIONS or _ENDS_IN_OR.search(head):
            break
        groups.insert(0, group)
        text = head
    return text, groups


def _opening(text: str) -> int:
    """Index of the `(` matching the final `)`, or -1."""
    depth = 0
    for i in range(len(text) - 1, -1, -1):
        if text[i] == ")":
            depth += 1
        elif text[i] == "(":
            depth -= 1
            if depth == 0:
                return i
    return -1


def _move_article(text: str) -> str:
    text = text.strip()
    match = _TRAILING_ARTICLE.match(text)
    if not match:
        return text
    article, rest = match.group("article"), match.group("rest")
    joiner = "" if article.endswith("'") else " "
    return f"{article}{joiner}{rest}"


def _accents_from(main: str, names: list[str]) -> str:
    """`main` with the accents a longer alias writes its words with ("Amelie" -> "Amélie")."""
    words = _WORD.findall(main)
    if not words or any(_fold(w) != w.casefold() for w in words):
        return main  # already written with accents (or nothing to compare)
    target = [w.casefold() for w in words]
    for name in names:
        found = _WORD.findall(name)
        if len(found) <= len(words):
            continue  # a translated title, not a name taken from a longer one
        for i in range(len(found) - len(words) + 1):
            run = found[i : i + len(words)]
            if [_fold(w) for w in run] == target and run != words and _kept_marks(run):
                return _respelled(main, run)
    return main


def _respelled(main: str, spelled: list[str]) -> str:
    """`main` with its words replaced, in order, by `spelled` (case and punctuation kept)."""
    words = iter(spelled)
    return _WORD.sub(lambda m: _keep_case(m.group(0), next(words)), main)


def _kept_marks(words: list[str]) -> bool:
    """Only marks English keeps (é, è, ë, ç, ñ); a circumflex or macron marks a long vowel
    of romanized Japanese, which English drops ("Sanjuro", not "Sanjûrô")."""
    marks = {c for w in words for c in unicodedata.normalize("NFKD", w) if unicodedata.combining(c)}
    return marks <= _ENGLISH_MARKS


def _keep_case(original: str, accented: str) -> str:
    if original.isupper():
        return accented.upper()
    if original[:1].isupper():
        return accented[:1].upper() + accented[1:]
    return accented


def _fold(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


def _key(text: str) -> str:
    """Two names that differ only in case, accents or punctuation are one name."""
    return " ".join(_WORD.findall(_fold(text).replace("_", " ")))
