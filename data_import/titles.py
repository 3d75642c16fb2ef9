"""MovieLens titles the way people say them: `Matrix, The (1999)` -> `The Matrix`, 1999."""

from __future__ import annotations

import re

_YEAR = re.compile(r"\s*\((\d{4})(?:[-\u2013]\d{0,4})?\)\s*$")
# Articles MovieLens moves to the end of a title, in the languages its catalogue uses.
ARTICLES = (
    "The", "A", "An", "Les", "La", "Le", "L'", "Il", "Lo", "Gli", "I", "Das", "Der", "Die",
    "Den", "Det", "El", "Los", "Las", "Un", "Une", "Una", "Uno", "Ein", "Eine", "O", "Os", "As",
)  # fmt: skip
_TRAILING_ARTICLE = re.compile(
    r"^(?P<rest>.+), (?P<article>" + "|".join(map(re.escape, ARTICLES)) + r")$"
)


def split_year(raw: str) -> tuple[str, int | None]:
    """`Heat (1995)` -> (`Heat`, 1995); a title without a year keeps None."""
    text = raw.strip()
    match = _YEAR.search(text)
    if not match:
        return text, None
    return text[: match.start()].strip(), int(match.group(1))


def restore_article(title: str) -> str:
    """`Matrix, The` -> `The Matrix`; an alternate title in parentheses is handled on its own.

    `City of Lost Children, The (Cité des enfants perdus, La)` ->
    `The City of Lost Children (La Cité des enfants perdus)`.
    """
    main, alt = title, ""
    if title.endswith(")") and " (" in title:
        main, _, alt = title.partition(" (")
        alt = alt[:-1]
    main = _move_article(main)
    if alt:
        return f"{main} ({_move_article(alt)})"
    return main


def _move_article(text: str) -> str:
    match = _TRAILING_ARTICLE.match(text.strip())
    if not match:
        return text.strip()
    article, rest = match.group("article"), match.group("rest")
    joiner = "" if article.endswith("'") else " "
    return f"{article}{joiner}{rest}"


def display_title(raw: str) -> tuple[str, int | None]:
    """The stored title and year for a MovieLens title string."""
    title, year = split_year(raw)
    return restore_article(title), year
