"""The 19 MovieLens genres, matched case-insensitively ('sci-fi', 'SCI FI', 'science fiction')."""

from __future__ import annotations

import re
from enum import StrEnum

_KEY = re.compile(r"[^a-z]")
_ALIASES = {
    "sciencefiction": "Sci-Fi",
    "scifi": "Sci-Fi",
    "noir": "Film-Noir",
    "kids": "Children",
    "family": "Children",
    "childrens": "Children",
    "animated": "Animation",
    "romantic": "Romance",
    "documentaries": "Documentary",
    "musicals": "Musical",
    "westerns": "Western",
    "thrillers": "Thriller",
    "comedies": "Comedy",
    "dramas": "Drama",
}


class Genre(StrEnum):
    """A MovieLens genre. Unknown names fail validation with the list of valid ones."""

    ACTION = "Action"
    ADVENTURE = "Adventure"
    ANIMATION = "Animation"
    CHILDREN = "Children"
    COMEDY = "Comedy"
    CRIME = "Crime"
    DOCUMENTARY = "Documentary"
    DRAMA = "Drama"
    FANTASY = "Fantasy"
    FILM_NOIR = "Film-Noir"
    HORROR = "Horror"
    IMAX = "IMAX"
    MUSICAL = "Musical"
    MYSTERY = "Mystery"
    ROMANCE = "Romance"
    SCI_FI = "Sci-Fi"
    THRILLER = "Thriller"
    WAR = "War"
    WESTERN = "Western"

    @classmethod
    def _missing_(cls, value: object) -> Genre | None:
        if not isinstance(value, str):
            return None
        key = _KEY.sub("", value.casefold())
        for member in cls:
            if _KEY.sub("", member.value.casefold()) == key:
                return member
        alias = _ALIASES.get(key)
        return cls(alias) if alias else None
