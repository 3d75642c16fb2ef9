"""How well a name fits a kind of thing: a movie or a person, by name, loosely, or not at all.

A small model mixes them up: `film_facts` about "Denis Villeneuve" as a movie, or
`movies_together` with a film and a genre as its two people. `fit` tells the tools' `check`
whether to read the name as the other kind or to send the call back, before anything runs.
"""

from __future__ import annotations

from enum import IntEnum
from typing import Literal

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


def other(kind: Kind) -> Kind:
    return "person" if kind == "movie" else "movie"
