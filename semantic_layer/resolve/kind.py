"""How well a name fits a kind of thing: a movie or a person, by name, loosely, or not at all.

A small model mixes them up: `film_facts` about "Denis Villeneuve" as a movie, or
`movies_together` with a film and a genre as its two people. `fit` tells the tools' `check`
whether to read the name as the other kind or to send the call back, before anything runs.
"""

from __future__ import annotations

from enum import IntEnum
from typing import Any, Literal

from semantic_layer.errors import AmbiguousEntityError, EntityNotFoundError, InvalidInputError
from semantic_layer.resolve.movies import resolve_movie
from semantic_layer.resolve.people import resolve_person
from semantic_layer.resolve.reader import Reader

Kind = Literal["movie", "person"]


class Fit(IntEnum):
    NONE = 0  # nothing of that kind is called anything like it
    LOOSE = 1  # a misspelling's best match, or candidates to choose from
    BY_NAME = 2  # a title or name, exactly or normalized (one, or several of that name)


def fit(graph: Reader, text: str, kind: Kind) -> Fit:
    """How well `text` names a `kind` in the graph."""
    resolve = resolve_movie if kind == "movie" else resolve_person
    try:
        found = resolve(graph, text)
    except AmbiguousEntityError as e:
        return Fit.LOOSE if e.loose else Fit.BY_NAME
    except (EntityNotFoundError, InvalidInputError):
        return Fit.NONE
    return Fit.LOOSE if found.how == "fuzzy" else Fit.BY_NAME


def held_by_name(graph: Reader, text: str) -> bool:
    """Whether `text` is a title or a name the graph holds (exactly or normalized), not only
    a look-alike of one."""
    return any(fit(graph, text, kind) == Fit.BY_NAME for kind in ("movie", "person"))


RECALLED_YEARS = 3  # how far a small model's recollection of a film's year may be off


def recalled_title(graph: Reader, title: str, year: int | None) -> str | None:
    """The film the graph holds, as a model recalls it by title and year: the label (title and
    year) of a film called `title`, or of the closest look-alike of it, that came out within
    `RECALLED_YEARS` of `year` ("Return to the Future", 1985: *Back to the Future (1985)*);
    None when none did ("White Heat", 1957, is a film of 1949: not the one meant). Without a
    year, `title` when the graph holds it by name; a person's name the graph holds, whatever
    the year (a year says nothing of a person)."""
    if year is None or fit(graph, title, "person") == Fit.BY_NAME:
        return title if held_by_name(graph, title) else None
    found: list[Any]
    try:
        found = [resolve_movie(graph, title)]  # one film of the name, or a misspelling's match
    except AmbiguousEntityError as e:
        found = e.candidates  # several of the name, or look-alikes, the closest first
    except (EntityNotFoundError, InvalidInputError):
        return None
    dated = [f.label for f in found if f.year is not None and abs(f.year - year) <= RECALLED_YEARS]
    return dated[0] if dated else None


def other(kind: Kind) -> Kind:
    return "person" if kind == "movie" else "movie"
