"""Tool arguments that name a movie, a person or a genre, linked to the graph.

A tool's input model marks such a field with `x-entity` in its JSON schema extras
(`entity("movie")`, `entity("movie", "person")`); declared tools get the mark from their
parameter types. Two things use the mark, the same for every tool, built-in or declared:
the agent's grammar offers the names linking found in the question for that field
(`linked_names`), and a tool's `check` replaces a value that names nothing in the graph by the
one name linking finds inside it (`link_arguments`): "Jurassic Park 3.5 stars" is Jurassic
Park, "电影 Hero (2002)" is Hero (2002).
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from pydantic import BaseModel

from semantic_layer.errors import ToolArgumentsError
from semantic_layer.linking.linker import link
from semantic_layer.linking.mentions import Linked, MovieMention
from semantic_layer.linking.names import names_someone
from semantic_layer.resolve.kind import Fit, Kind, fit
from semantic_layer.resolve.reader import Reader

ENTITY_KEY = "x-entity"
YEAR_FROM, YEAR_TO = "year-from", "year-to"  # the kinds of a year range's two ends
STATED_NUMBER = "stated-number"  # a number the user gives (a rating): one they wrote, if any
STATED_KEY = "x-stated"  # an argument every question states: the agent's grammar requires it


def entity(*kinds: str) -> dict[str, Any]:
    """The JSON schema extra that marks a field as naming one of `kinds` (movie, person,
    genre, tag; `YEAR_FROM` and `YEAR_TO` for the ends of a year range the question gives;
    `STATED_NUMBER` for a number the user gives, such as a rating)."""
    return {ENTITY_KEY: " ".join(kinds)}


def stated() -> dict[str, Any]:
    """The JSON schema extra that marks an argument every question states (what it asks about a
    film): the agent's grammar requires it where the tool has a default for other callers, so a
    small model writes it instead of the arguments it may leave out."""
    return {STATED_KEY: True}


def kinds_of(schema_extra: Any) -> list[str]:
    """The kinds a field's schema extra names (none for an unmarked field)."""
    if not isinstance(schema_extra, dict):
        return []
    value = schema_extra.get(ENTITY_KEY)
    return value.split() if isinstance(value, str) else []


def linked_names(linked: Linked, marked: Any) -> list[str]:
    """The names linking found of the kinds `marked` (a field's `x-entity` value) names."""
    kinds = marked.split() if isinstance(marked, str) else []
    names: list[str] = []
    if "movie" in kinds:
        names += [_movie_name(m, linked) for m in linked.strong_movies()]
    if "person" in kinds:
        names += [p.best.name for p in linked.strong_people()]
    if "genre" in kinds:
        names += [g.genre for g in linked.genres]
    if "tag" in kinds:
        names += [t.tag for t in linked.tags]
    return list(dict.fromkeys(names))


def _movie_name(movie: MovieMention, linked: Linked) -> str:
    """A movie's title, or its label ("Solaris (2002)") when films share the title and a year
    the text writes picks one of them ("the 2002 Solaris", "Psycho (1998)")."""
    same = movie.sharing_title()
    dated = [c for c in same if c.year == movie.year or linked.writes_year(c.year)]
    return dated[0].label if len(same) > 1 and len(dated) == 1 else movie.best.title


def link_arguments[M: BaseModel](arguments: M, graph: Reader) -> M:
    """`arguments` with each marked value that names nothing in the graph replaced by the one
    name linking finds in it; unchanged when it names something, or when linking finds none.
    A value that writes several names ("Julia Roberts, Hugh Grant", a cast copied whole) is
    those names in a list, and refused in a field that takes one: the call says which."""
    updates: dict[str, Any] = {}
    for name, field in type(arguments).model_fields.items():
        kinds = [k for k in kinds_of(field.json_schema_extra) if k in ("movie", "person")]
        value = getattr(arguments, name)
        if not kinds or value is None:
            continue
        if isinstance(value, str):
            found = _linked_values(graph, kinds, value)
            if len(found) > 1:
                raise ToolArgumentsError(
                    f"{name}: {value!r} names {len(found)} ({', '.join(found)}); "
                    "a call takes one of them"
                )
            new: Any = found[0]
        elif isinstance(value, list):
            new = [
                found
                for v in value
                for found in (_linked_values(graph, kinds, v) if isinstance(v, str) else [v])
            ]
        else:
            continue
        if new != value:
            updates[name] = new
    return arguments.model_copy(update=updates) if updates else arguments


def dated_arguments[M: BaseModel](arguments: M, graph: Reader, dated: Collection[int]) -> M:
    """`arguments` with each movie value that several films share as their title ("Titanic")
    replaced by the label of the one of them in `dated`, the films the conversation dated
    (`Linked.dated_movies`: "Titanic (1997) was directed by James Cameron.", then "Got anything
    like that one?"); unchanged when none of them or several are."""
    if not dated:
        return arguments
    updates: dict[str, Any] = {}
    for name, field in type(arguments).model_fields.items():
        if "movie" not in kinds_of(field.json_schema_extra):
            continue
        value = getattr(arguments, name)
        if isinstance(value, str):
            new: Any = _dated_value(graph, value, dated)
        elif isinstance(value, list):
            new = [_dated_value(graph, v, dated) if isinstance(v, str) else v for v in value]
        else:
            continue
        if new != value:
            updates[name] = new
    return arguments.model_copy(update=updates) if updates else arguments


def _dated_value(graph: Reader, value: str, dated: Collection[int]) -> str:
    movies = link(graph, value).strong_movies()
    if len(movies) != 1 or movies[0].year is not None:  # several films, or dated already
        return value
    movie = movies[0]
    same = movie.sharing_title()
    picked = [c for c in same if c.movie_id in dated]
    return picked[0].label if len(same) > 1 and len(picked) == 1 else value


def _linked_values(graph: Reader, kinds: list[str], value: str) -> list[str]:
    """What `value` names: itself when it is a name the graph knows, else the names linking
    finds in it: the one it finds (weak ones too, but not a last name of someone barely
    known), or the strong ones when it finds several; itself when none."""
    known: list[Kind] = [k for k in ("movie", "person") if k in kinds]
    if any(fit(graph, value, kind) == Fit.BY_NAME for kind in known):
        return [value]
    linked = link(graph, value)
    names: list[str] = []
    strong: list[str] = []
    if "movie" in kinds:
        for m in linked.movies:
            names.append(m.best.label if len(m.candidates) > 1 else m.best.title)
            if m.strength == "strong":
                strong.append(names[-1])
    if "person" in kinds:
        for p in linked.people:
            if names_someone(p.best):
                names.append(p.best.name)
                if p.strength == "strong":
                    strong.append(p.best.name)
    if len(names) == 1:
        return names
    return list(dict.fromkeys(strong)) if len(strong) > 1 else [value]
