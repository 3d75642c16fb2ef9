"""Reading the tools' structured data for display: a few spellings per field, missing is fine."""

from __future__ import annotations

from typing import Any

TITLE = ("title", "movie", "name")
YEAR = ("year",)
AKA = ("alsoKnownAs", "aliases")
GENRES = ("genres", "genre")
RATING = ("ratingAvg", "avgRating", "averageRating", "avg_rating", "mlRating", "rating", "score")
IMDB = ("imdbRating", "imdb_rating")
COUNT = ("ratingCount", "ratingsCount", "numRatings", "rating_count", "votes")
WHY = ("why", "reason", "because", "explanation")
DIRECTORS = ("directors", "directedBy", "director")
CAST = ("cast", "actors", "mainCast", "main_cast")
TAGS = ("tags", "topTags", "top_tags")
ACTED = ("actedIn", "acted_in", "asActor", "as_actor", "actor")
DIRECTED = ("directed", "asDirector", "as_director")
ITEMS = ("recommendations", "movies", "items", "results", "ratings", "rows")


def get(data: Any, keys: tuple[str, ...], default: Any = None) -> Any:
    if not isinstance(data, dict):
        return default
    for key in keys:
        value = data.get(key)
        if value not in (None, "", [], {}):
            return value
    return default


def items(data: Any) -> list[Any]:
    """The list inside a result: the data itself, or its one list under a known key."""
    if isinstance(data, list):
        return data
    found = get(data, ITEMS)
    return found if isinstance(found, list) else []


def names(value: Any, limit: int = 8) -> list[str]:
    """A list of people, genres or titles as strings (entries may be dicts)."""
    if value is None:
        return []
    if isinstance(value, str):
        return [part.strip() for part in value.split("|") if part.strip()][:limit]
    if not isinstance(value, list):
        return [str(value)]
    return [label(v) for v in value][:limit]


def label(value: Any) -> str:
    """`Title (year)` for a movie dict, the name for a person, else the text."""
    if isinstance(value, dict):
        title = get(value, TITLE, "?")
        year = get(value, YEAR)
        return f"{title} ({year})" if year and f"({year})" not in str(title) else str(title)
    return str(value)


def number(value: Any, digits: int = 1) -> str | None:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return f"{value:.{digits}f}" if isinstance(value, float) else str(value)
    return None


def why(value: Any) -> str | None:
    """The reason a movie was recommended, as one short line."""
    if value is None:
        return None
    if isinstance(value, dict):
        return ", ".join(f"{k}: {v}" for k, v in value.items())
    return str(value)
