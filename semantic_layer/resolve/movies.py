"""Finding the one movie a user means: exact title, normalized title (and year), then fuzzy."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from semantic_layer.errors import AmbiguousEntityError, EntityNotFoundError
from semantic_layer.normalize import extract_year, fold, normalize_title
from semantic_layer.resolve.choose import MAX_CANDIDATES, clear_winner, rank
from semantic_layer.resolve.fulltext import search
from semantic_layer.resolve.reader import Reader
from semantic_layer.resolve.text import clean_input
from semantic_layer.resolve.candidate import Candidate

How = Literal["exact", "normalized", "fuzzy"]
_BARE_YEAR_MIN, _BARE_YEAR_MAX = 1870, 2100


@dataclass(frozen=True)
class MovieRef:
    """A resolved movie, and how it was found (a fuzzy match is said out loud)."""

    movie_id: int
    title: str
    year: int | None
    how: How

    @property
    def label(self) -> str:
        return f"{self.title} ({self.year})" if self.year else self.title


def movie_candidate(row: dict[str, Any]) -> Candidate:
    year = row.get("year")
    label = f"{row['title']} ({year})" if year else row["title"]
    return Candidate(label=label, title=row["title"], year=year, movie_id=row["movieId"])


def resolve_movie(graph: Reader, text: str | None) -> MovieRef:
    """The one movie `text` names, or `AmbiguousEntityError` with candidates (with years),
    `EntityNotFoundError`, or `InvalidInputError` for empty or unusable input."""
    typed = clean_input(text, "movie title")
    year = extract_year(typed)
    norm = normalize_title(typed)
    if year is None:  # "Heat 1995": a bare trailing year, if the title itself does not match
        head, _, tail = typed.rpartition(" ")
        bare_year = tail.isdigit() and _BARE_YEAR_MIN <= int(tail) <= _BARE_YEAR_MAX and head
        if bare_year and not graph.read("resolve/movie_by_norm", {"titleNorm": norm}):
            year, norm = int(tail), normalize_title(head)
    if not norm:
        norm = fold(typed).strip()
    rows = graph.read("resolve/movie_by_norm", {"titleNorm": norm})
    if rows:
        return _among_same_title(typed, year, rows)
    return _fuzzy(graph, typed, norm, year)


def _among_same_title(typed: str, year: int | None, rows: list[dict[str, Any]]) -> MovieRef:
    if year is not None:
        dated = [r for r in rows if r["year"] == year]
        if not dated:
            raise AmbiguousEntityError(
                f"No {rows[0]['title']!r} from {year} in the graph; there is: "
                + ", ".join(movie_candidate(r).label for r in rows)
                + ". Which one do you mean?",
                [movie_candidate(r) for r in rows[:MAX_CANDIDATES]],
            )
        rows = dated
    if len(rows) == 1:
        return _ref(rows[0], _how(typed, rows[0]))
    exact = [r for r in rows if _how(typed, r) == "exact"]
    if len(exact) == 1:
        return _ref(exact[0], "exact")
    raise AmbiguousEntityError(
        f"{len(rows)} movies are called {rows[0]['title']!r}: "
        + ", ".join(movie_candidate(r).label for r in rows)
        + ". Which one do you mean?",
        [movie_candidate(r) for r in rows],
    )


def _fuzzy(graph: Reader, typed: str, norm: str, year: int | None) -> MovieRef:
    rows = search(graph, "resolve/movie_fulltext", norm)
    if year is not None and any(r["year"] == year for r in rows):
        rows = [r for r in rows if r["year"] == year]
    ranked = rank(norm, rows, "titleNorm")
    winner = clear_winner(norm, ranked, "titleNorm")
    if winner is not None:
        return _ref(winner.row, "fuzzy")
    if not ranked:
        raise EntityNotFoundError(
            f"No movie called {typed!r} is in the graph. Check the spelling, or try the "
            "title as it was released in English."
        )
    candidates = [movie_candidate(s.row) for s in ranked[:MAX_CANDIDATES]]
    raise AmbiguousEntityError(
        f"No movie is called exactly {typed!r}. Did you mean one of: "
        + ", ".join(c.label for c in candidates)
        + "?",
        candidates,
    )


def _how(typed: str, row: dict[str, Any]) -> How:
    title = fold(row["title"])
    bare = fold(typed).strip()
    with_year = f"{title} ({row['year']})"
    return "exact" if bare in (title, with_year) else "normalized"


def _ref(row: dict[str, Any], how: How) -> MovieRef:
    return MovieRef(movie_id=row["movieId"], title=row["title"], year=row["year"], how=how)
