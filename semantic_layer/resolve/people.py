"""Finding the one person a user means: exact name, normalized name, then fuzzy."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from semantic_layer.errors import AmbiguousEntityError, EntityNotFoundError
from semantic_layer.normalize import normalize_name
from semantic_layer.resolve.candidate import Candidate
from semantic_layer.resolve.choose import MAX_CANDIDATES, clear_winner, offered, rank
from semantic_layer.resolve.fulltext import search
from semantic_layer.resolve.reader import Reader
from semantic_layer.resolve.text import clean_input

How = Literal["exact", "normalized", "fuzzy"]


@dataclass(frozen=True)
class PersonRef:
    name: str
    how: How

    @property
    def label(self) -> str:
        return self.name


def person_candidate(row: dict[str, Any]) -> Candidate:
    roles = []
    if row.get("directed"):
        roles.append(f"directed {row['directed']}")
    if row.get("acted"):
        roles.append(f"acted in {row['acted']}")
    label = f"{row['name']} ({', '.join(roles)})" if roles else row["name"]
    return Candidate(label=label, name=row["name"])


def resolve_person(graph: Reader, text: str | None) -> PersonRef:
    """The one person `text` names, or `AmbiguousEntityError` / `EntityNotFoundError` /
    `InvalidInputError`."""
    typed = clean_input(text, "person's name")
    if graph.read("resolve/person_by_name", {"name": typed}):
        return PersonRef(typed, "exact")
    norm = normalize_name(typed)
    rows = graph.read("resolve/person_by_norm", {"nameNorm": norm}) if norm else []
    if len(rows) == 1:
        return PersonRef(rows[0]["name"], "normalized")
    if len(rows) > 1:
        candidates = [person_candidate(r) for r in rows[:MAX_CANDIDATES]]
        raise AmbiguousEntityError(
            f"Several people are called {typed!r}: "
            + ", ".join(c.label for c in candidates)
            + ". Which one do you mean?",
            candidates,
        )
    hits = search(graph, "resolve/person_fulltext", norm)
    ranked = rank(norm, hits, "nameNorm")
    winner = clear_winner(norm, ranked, "nameNorm")
    if winner is not None:
        return PersonRef(winner.row["name"], "fuzzy")
    choices = offered(norm, ranked, "nameNorm")
    if not choices:
        raise EntityNotFoundError(
            f"No actor or director called {typed!r} is in the graph. Check the spelling, "
            "or give the full name.",
            typed=typed,
        )
    candidates = [person_candidate(s.row) for s in choices]
    raise AmbiguousEntityError(
        f"No one is called exactly {typed!r}. Did you mean one of: "
        + ", ".join(c.label for c in candidates)
        + "?",
        candidates,
        loose=True,
        typed=typed,
    )
