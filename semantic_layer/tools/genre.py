"""The 19 MovieLens genres, matched case-insensitively ('sci-fi', 'SCI FI') or by a word of the genre
vocabulary ('science fiction', 'comedies': `semantic_layer/linking/genres.yaml`)."""

from __future__ import annotations

import re
from enum import StrEnum

from semantic_layer.linking.genres import genre_of

_KEY = re.compile(r"[^a-z]")


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
        named = genre_of(value)  # the genre vocabulary: "comedies", "science fiction", "family"
        return cls(named) if named else None
