"""Finding the one movie a user means: by any of its names, exact or normalized, then fuzzy.

A movie is found by its title or by any alias (a.k.a. names, original-language titles):
"Seven", "Se7en", "Amélie", "Amelie", "Le Fabuleux destin d'Amélie Poulain" and "Leon" each
find their movie before any fuzzy step. When several movies share the name, exactly one of
them called exactly what was typed, by its title, is the one ("Ocean's Eleven" is the 2001
film, "Ocean's 11" the 1960 one); else one that far more viewers rated than any other is the
one meant, and the others are named beside it (`others`: "Gladiator" is the 2000 film, rated
170 times, beside the 1992 one, rated 9 times); else the user is asked with years ("Solaris":
1972, 2002). A write asks whenever the name is shared: a rating is stored for the film the
user picked.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from semantic_layer.errors import AmbiguousEntityError, EntityNotFoundError
from semantic_layer.normalize import (
    ALIAS_SEPARATOR,
    extract_year,
    fold,
    normalize_title,
    numbers_as_words,
    title_words,
)
from semantic_layer.resolve.candidate import Candidate
from semantic_layer.resolve.choose import MAX_CANDIDATES, clear_winner, offered, rank
from semantic_layer.resolve.fulltext import search
from semantic_layer.resolve.reader import Reader
from semantic_layer.resolve.text import clean_input

How = Literal["exact", "normalized", "fuzzy", "best_known"]
_BARE_YEAR_MIN, _BARE_YEAR_MAX = 1870, 2100
BEST_KNOWN_TIMES = 4  # rated this many times as often as every other film of the name ...
BEST_KNOWN_MIN = 10  # ... and by this many viewers at least: the film a shared name means


@dataclass(frozen=True)
class MovieRef:
    """A resolved movie, and how it was found (a fuzzy match is said out loud)."""

    movie_id: int
    title: str
    year: int | None
    how: How
    others: tuple[str, ...] = ()  # the other films of the name, when it was the best known

    @property
    def label(self) -> str:
        return f"{self.title} ({self.year})" if self.year else self.title

    def reading(self, typed: str) -> str | None:
        """How `typed` was read, when a misspelling's match was taken for it."""
        return f"taking {typed!r} to mean {self.label}" if self.how == "fuzzy" else None


def movie_candidate(row: dict[str, Any]) -> Candidate:
    year = row.get("year")
    label = f"{row['title']} ({year})" if year else row["title"]
    return Candidate(label=label, title=row["title"], year=year, movie_id=row["movieId"])


def resolve_movie(graph: Reader, text: str | None, *, best_known: bool = True) -> MovieRef:
    """The one movie `text` names, or `AmbiguousEntityError` with candidates (with years),
    `EntityNotFoundError`, or `InvalidInputError` for empty or unusable input. Without
    `best_known` (a write) a name several films share always asks."""
    typed = clean_input(text, "movie title")
    year = extract_year(typed)
    words = title_words(typed)
    norm = numbers_as_words(words)
    rows: list[dict[str, Any]] = []
    if year is None:  # "Heat 1995": a bare trailing year, if the title itself does not match
        head, _, tail = typed.rpartition(" ")
        bare_year = tail.isdigit() and _BARE_YEAR_MIN <= int(tail) <= _BARE_YEAR_MAX and head
        if bare_year and not (rows := _named(graph, norm)):
            words = title_words(head)
            year, norm = int(tail), numbers_as_words(words)
    if not norm:
        norm = words = fold(typed).strip()
    rows = rows or _named(graph, norm)
    if rows:
        return _among_same_name(typed, year, rows, best_known=best_known)
    return _fuzzy(graph, typed, norm, words, year)


def _named(graph: Reader, norm: str) -> list[dict[str, Any]]:
    """Movies with a title or alias whose key is `norm`, each once, oldest first."""
    rows = _by_movie(graph.read("resolve/movie_by_norm", {"titleNorm": norm}))
    return sorted(rows, key=lambda r: (r["year"] or 0, r["movieId"]))


def _by_movie(hits: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One row per movie, in first-hit order, with every name it was found by (`names`, and
    their keys in `keys`)."""
    rows: dict[int, dict[str, Any]] = {}
    for hit in hits:
        row = rows.setdefault(hit["movieId"], {**hit, "names": [], "keys": []})
        if hit["name"] not in row["names"]:
            row["names"].append(hit["name"])
            row["keys"].append(hit["nameNorm"] or "")
    return list(rows.values())


def _among_same_name(
    typed: str, year: int | None, rows: list[dict[str, Any]], *, best_known: bool
) -> MovieRef:
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
        return _ref(rows[0], "exact" if _called(typed, rows[0]) else "normalized")
    by_title = [r for r in rows if _called(typed, r, aliases=False)]
    if len(by_title) == 1 and not any(_called(typed, r) for r in rows if r is not by_title[0]):
        return _ref(by_title[0], "exact")
    known = _best_known(rows) if best_known else None
    if known is not None:
        others = tuple(movie_candidate(r).label for r in rows if r is not known)
        return _ref(known, "best_known", others)
    raise AmbiguousEntityError(
        f"{len(rows)} movies are called {typed!r}: "
        + ", ".join(movie_candidate(r).label for r in rows)
        + ". Which one do you mean?",
        [movie_candidate(r) for r in rows],
    )


def _best_known(rows: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The film far more viewers rated than any other of the same name, if there is one."""
    by_count = sorted(rows, key=lambda r: -(r.get("ratingCount") or 0))
    first, second = (r.get("ratingCount") or 0 for r in by_count[:2])
    return by_count[0] if first >= max(BEST_KNOWN_MIN, BEST_KNOWN_TIMES * second) else None


def _fuzzy(graph: Reader, typed: str, norm: str, words: str, year: int | None) -> MovieRef:
    rows = [_with_aliases(r) for r in search(graph, "resolve/movie_fulltext", words)]
    if year is not None and any(r["year"] == year for r in rows):
        rows = [r for r in rows if r["year"] == year]
    ranked = rank(norm, rows, "keys")
    winner = clear_winner(norm, ranked, "keys")
    if winner is not None:
        return _ref(winner.row, "fuzzy")
    choices = offered(norm, ranked, "keys")
    if not choices:
        raise EntityNotFoundError(
            f"No movie called {typed!r} is in the graph. Check the spelling, or try the "
            "title as it was released in English.",
            typed=typed,
        )
    candidates = [movie_candidate(s.row) for s in choices]
    raise AmbiguousEntityError(
        f"No movie is called exactly {typed!r}. Did you mean one of: "
        + ", ".join(c.label for c in candidates)
        + "?",
        candidates,
        loose=True,
        typed=typed,
    )


def _with_aliases(row: dict[str, Any]) -> dict[str, Any]:
    """A full-text hit with its names and their keys (title first, then aliases)."""
    aliases = row["aliasText"].split(ALIAS_SEPARATOR) if row.get("aliasText") else []
    keys = [row["titleNorm"] or "", *map(normalize_title, aliases)]
    return {**row, "names": [row["title"], *aliases], "keys": keys}


def _called(typed: str, row: dict[str, Any], *, aliases: bool = True) -> bool:
    """Whether `typed` is the row's title, or one of the names it was found by, as written
    (case and accents aside)."""
    bare = fold(typed).strip()
    names = [row["title"], *row["names"]] if aliases else [row["title"]]
    return any(bare in (fold(n), f"{fold(n)} ({row['year']})") for n in names)


def _ref(row: dict[str, Any], how: How, others: tuple[str, ...] = ()) -> MovieRef:
    return MovieRef(
        movie_id=row["movieId"], title=row["title"], year=row["year"], how=how, others=others
    )
