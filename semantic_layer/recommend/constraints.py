"""What every recommendation must satisfy, how it reads, and how it is loosened when too few do.

Hard constraints: every genre of `genres` (or, once loosened, one of them), none of
`exclude_genres`, each of `people` (actor or director), the year range, the popularity band,
and never a movie the user rated. When fewer than half the movies asked for satisfy them,
`loosenings` gives looser constraints in a fixed order, each with the sentence that says so:
the popularity band first, then the year range widened by 5 and by 10 years each side, then
dropped, then all genres relaxed to any of them. Excluded genres, people and the user's own
ratings are never loosened.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any, Literal

Popularity = Literal["any", "well_known", "hidden_gems"]
WIDENINGS = (5, 10)  # years added each side of a range, in turn, before it is dropped
WELL_KNOWN_SHARE = 0.04  # well known: rated by at least this share of the graph's viewers ...
WELL_KNOWN_MIN = 10  # ... and at least this many
GEM_SHARE = 0.005  # hidden gems: less than well known, rated by at least this share ...
GEM_MIN = 3  # ... and at least this many (a mean of fewer says little)
MAX_GENRES = 3  # genres asked for, and genres excluded, in one request
POPULARITY_WORDS = {"well_known": "well-known movies", "hidden_gems": "hidden gems"}


@dataclass(frozen=True)
class Bands:
    """The rating counts that bound the popularity bands in this graph."""

    well_known: int
    gem: int

    @classmethod
    def for_audience(cls, users: int) -> Bands:
        return cls(
            well_known=max(WELL_KNOWN_MIN, round(users * WELL_KNOWN_SHARE)),
            gem=max(GEM_MIN, round(users * GEM_SHARE)),
        )

    def counts(self, popularity: Popularity) -> tuple[int, int | None]:
        """(at least, fewer than) ratings for `popularity`."""
        if popularity == "well_known":
            return self.well_known, None
        if popularity == "hidden_gems":
            return self.gem, self.well_known
        return 1, None


@dataclass(frozen=True)
class Constraints:
    genres: tuple[str, ...] = ()
    exclude_genres: tuple[str, ...] = ()
    any_genre: bool = False  # loosened: one of `genres` is enough
    people: tuple[str, ...] = ()  # names as the graph holds them
    year_from: int | None = None
    year_to: int | None = None
    popularity: Popularity = "any"

    @property
    def narrows(self) -> bool:
        """Whether anything but the user's own ratings limits the movies."""
        return bool(
            self.genres
            or self.exclude_genres
            or self.people
            or self.year_from is not None
            or self.year_to is not None
            or self.popularity != "any"
        )

    def params(self, bands: Bands, allowed: list[int] | None) -> dict[str, Any]:
        """The query parameters every `recommend/` query that filters takes."""
        least, fewer = bands.counts(self.popularity)
        every = [] if self.any_genre else list(self.genres)
        return dict(
            genres=every,
            anyGenres=list(self.genres) if self.any_genre else None,
            excludeGenres=list(self.exclude_genres),
            yearFrom=self.year_from,
            yearTo=self.year_to,
            minCount=least,
            maxCount=fewer,
            allowed=allowed,
        )

    def admits(
        self, movie: dict[str, Any], bands: Bands, people_of: dict[int, set[str]] | None
    ) -> bool:
        """Whether a movie (`movieId`, `year`, `genres`, `ratingCount`) satisfies every
        constraint; `people_of`: the names that worked on each movie (needed with `people`)."""
        genres = set(movie.get("genres") or ())
        year, count = movie.get("year"), movie.get("ratingCount") or 0
        least, fewer = bands.counts(self.popularity)
        wanted = set(self.genres)
        return bool(
            (bool(wanted & genres) if self.any_genre and wanted else wanted <= genres)
            and not genres & set(self.exclude_genres)
            and (self.year_from is None or (year is not None and year >= self.year_from))
            and (self.year_to is None or (year is not None and year <= self.year_to))
            and count >= least
            and (fewer is None or count < fewer)
            and (
                not self.people
                or set(self.people) <= (people_of or {}).get(movie["movieId"], set())
            )
        )

    def loosenings(self) -> Iterator[tuple[Constraints, str]]:
        """Looser constraints in the stated order, each with what was loosened so far."""
        done: list[str] = []
        current = self
        if current.popularity != "any":
            current = replace(current, popularity="any")
            done.append(f"not only {POPULARITY_WORDS[self.popularity]}")
            yield current, "; ".join(done)
        if current.year_from is not None or current.year_to is not None:
            asked = self.years_label()
            for widen in WIDENINGS:
                wider = replace(
                    current,
                    year_from=None if self.year_from is None else self.year_from - widen,
                    year_to=None if self.year_to is None else self.year_to + widen,
                )
                yield wider, "; ".join([*done, f"years widened from {asked} to "
                                                f"{wider.years_label()}"])  # fmt: skip
            current = replace(current, year_from=None, year_to=None)
            done.append(f"any year, not only {asked}")
            yield current, "; ".join(done)
        if len(current.genres) > 1 and not current.any_genre:
            current = replace(current, any_genre=True)
            done.append(f"any of {_and(current.genres, 'or')}, not all of them")
            yield current, "; ".join(done)

    def years_label(self) -> str:
        """'the 1990s', '1985-2004', '2010 or later', '1970 or earlier', or '' with no range."""
        start, end = self.year_from, self.year_to
        if start is None and end is None:
            return ""
        if start is not None and end is not None:
            if start == end:
                return str(start)
            if start % 10 == 0 and end == start + 9:
                return f"the {start}s"
            return f"{start}-{end}"
        return f"{start} or later" if start is not None else f"{end} or earlier"

    def describe(self) -> str:
        """The constraints as a phrase: 'Crime and Thriller, not Horror, the 1990s, with Al
        Pacino, hidden gems'."""
        parts = []
        if self.genres:
            parts.append(_and(self.genres, "or" if self.any_genre else "and"))
        if self.exclude_genres:
            parts.append("not " + _and(self.exclude_genres, "or"))
        if years := self.years_label():
            parts.append(years)
        if self.people:
            parts.append("with " + _and(self.people, "and"))
        if self.popularity != "any":
            parts.append(POPULARITY_WORDS[self.popularity])
        return ", ".join(parts)


def _and(items: tuple[str, ...] | list[str], word: str) -> str:
    items = list(items)
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} {word} {items[-1]}"
