"""Constrained decoding: a JSON schema that admits one valid tool call or a Final Answer.

The schema is exact JSON Schema: top-level `properties` (TGI refuses a grammar without them)
give the shape — `action` from the tool names plus "Final Answer", `action_input`
from the union of the tools' argument schemas — and a top-level `anyOf` of one object per tool
(constant action name, that tool's arguments) plus the Final Answer object ties each name to its
own arguments. Engines enforce what they support: TGI (outlines) builds its automaton from
`properties`, llama.cpp's converter from the `anyOf`; whatever gets through is validated against
the tool's Pydantic model before dispatch anyway.

Argument schemas are inlined (no `$ref`), stripped of titles and descriptions (the prompt
carries those) and closed with `additionalProperties: false`. An argument that names a movie, a
person or a genre (its schema says so with `x-entity`, see `semantic_layer.linking.arguments`)
admits the names linking found in the question first, then any text. What the question states
is required, so the model writes it: a year range it names, and each list of names of a kind it
names (possibly empty: the model decides where a name belongs), or, when it names nothing, of a
kind the last turns asked about; genres only when named with other kinds. A question that names
things and no one (nor did the last turns) has no person list to write.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from semantic_layer.linking.arguments import (
    ENTITY_KEY,
    STATED_KEY,
    STATED_NUMBER,
    YEAR_FROM,
    YEAR_TO,
    kinds_of,
    linked_names,
    stated,
)
from semantic_layer.linking.mentions import (
    GenreMention,
    Linked,
    MovieMention,
    PersonMention,
    YearsMention,
)
from semantic_layer.linking.names import names_someone
from semantic_layer.tools.contract import Tool

FINAL_ANSWER = "Final Answer"
_NOISE = {"title", "description", "examples"}
_ONE_LIST = {"movie", "person"}  # kinds with one list of names in a tool (genres: in or out)


def step_schema(
    tools: Sequence[Tool[Any]],
    final_only: bool = False,
    tools_only: bool = False,
    *,
    linked: Linked | None = None,
    earlier: Linked | None = None,
) -> dict[str, Any]:
    """The schema for one model reply; `final_only` admits only a Final Answer (the last step),
    `tools_only` only a tool call (a first step that must consult the graph). A reply opens
    with the action: no free-text thought before it (measured: the same choices, about half a
    second sooner, docs/agent.md). `earlier`: what the user asked about in the last turns,
    whose genres a follow-up's genre arguments admit too ("Any comedies instead?" after a horror request
    may exclude Horror; "From the 90s?" may keep it)."""
    final = _branch({"const": FINAL_ANSWER}, {"type": "string"})
    if final_only or not tools:
        return final
    branches = []
    for tool in tools:
        try:
            branches.append(_branch({"const": tool.name}, tool_input_schema(tool, linked, earlier)))
        except NoValueError:  # "I'm user 42. What did I rate Heat?" stores no rating of 42
            continue
    if not branches:
        return final
    if not tools_only:
        branches.append(final)
    actions = [b["properties"]["action"]["const"] for b in branches]
    return {
        "type": "object",
        "properties": {
            "action": {"type": "string", "enum": actions},
            "action_input": {"anyOf": [b["properties"]["action_input"] for b in branches]},
        },
        "required": ["action", "action_input"],
        "additionalProperties": False,
        "anyOf": branches,
    }


class NoValueError(Exception):
    """A required argument that the question leaves no value for: the tool cannot be called."""


def tool_input_schema(
    tool: Tool[Any], linked: Linked | None = None, earlier: Linked | None = None
) -> dict[str, Any]:
    """A tool's argument schema, self-contained and closed; with `linked`, its naming
    arguments offer the linked names (and a genre argument the genres `earlier` turns asked
    about). Raises `NoValueError` when a required argument can take no value (a rating when the
    numbers the question writes are none)."""
    schema: dict[str, Any] = _clean(tool.input_schema, linked or Linked(), earlier or Linked())
    schema["additionalProperties"] = False
    return schema


def _branch(action: dict[str, Any], action_input: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {"action": action, "action_input": action_input},
        "required": ["action", "action_input"],
        "additionalProperties": False,
    }


def _clean(node: Any, linked: Linked, earlier: Linked) -> Any:
    if isinstance(node, list):
        return [_clean(v, linked, earlier) for v in node]
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] = {}
    stated: list[str] = []  # what the question states: the model writes it
    for key, value in node.items():
        if key in _NOISE or key in (ENTITY_KEY, STATED_KEY):
            continue
        if key == "properties" and isinstance(value, dict):
            # argument names are kept as they are, even one called "title"
            required = set(node.get("required", []))
            kept = {n: _closed(sub, linked, earlier, n in required) for n, sub in value.items()}
            out[key] = {
                n: _clean(sub, linked, earlier) for n, sub in kept.items() if sub is not None
            }
            # a follow-up that names nothing itself ("Any more like that one?") is about
            # what the last turns asked about: the lists of those kinds are written
            kinds = _kinds_named(linked if linked.names_something() else earlier)
            stated = [
                n for n, sub in kept.items()
                if n not in required and (_stated_range(sub) or _names_found(sub, kinds))
            ]  # fmt: skip
        elif key in ("default", "const", "enum"):
            out[key] = value
        else:
            out[key] = _clean(value, linked, earlier)
    if stated:  # after the loop: "required" comes after "properties" in a Pydantic schema
        out["required"] = [*node.get("required", []), *stated]
    names = linked_names(linked, node.get(ENTITY_KEY))
    return _offering(out, names) if names else out


def _stated_range(schema: Any) -> bool:
    return isinstance(schema, dict) and STATED_KEY in schema


def _kinds_named(linked: Linked) -> set[str]:
    """The kinds of thing (movie, person, genre, years) the question names when it names
    several; when it names one kind, that kind if it is movies or people (`_ONE_LIST`), else
    none. A span found as both a movie and a person ("Amélie") is one thing of a kind the model
    decides: it makes neither kind count."""
    named: list[MovieMention | PersonMention | GenreMention | YearsMention] = [
        *linked.strong_movies(), *linked.strong_people(), *linked.genres, *linked.years
    ]  # fmt: skip
    spans: dict[str, set[tuple[int, int]]] = {}
    for mention in named:
        spans.setdefault(mention.kind, set()).add((mention.start, mention.end))
    kinds = {
        kind for kind, own in spans.items()
        if own - set().union(*(other for k, other in spans.items() if k != kind))
    }  # fmt: skip
    return kinds if len(kinds) > 1 else kinds & _ONE_LIST


def _names_found(schema: Any, kinds: set[str]) -> bool:
    """Whether `schema` is a list of names of one of `kinds`, the kinds the question names
    (`_kinds_named`). Such a list is required, possibly empty: a small model wrote one kind and
    closed the object (a person without the genre asked with them; "a 90s thriller" without
    "Thriller", llama.cpp writing the required year range first), or wrote none: "Gostei muito
    de Goodfellas. O que mais devo ver?" went out as `{}`, its thought copied from the worked
    example of a request by the user's own ratings. With genres the only kind named the lists
    stay optional ("comedies without romance": the model writes what it needs; required, the
    only genre named went into the first list even when excluded); a movie or a person has one
    list to go in."""
    return (
        isinstance(schema, dict)
        and schema.get("type") == "array"
        and bool(set(kinds_of(schema)) & kinds)
    )


def _closed(schema: Any, linked: Linked, earlier: Linked, required: bool = False) -> Any:
    """An argument whose values come from a closed vocabulary of the question (`x-entity`
    genre, or an end of a year range) admits only what linking found there. A year range is
    something written (digits, a decade, "recent"), so it is there only when the question names
    years (`_year_end`): "I'm bored, any ideas?" is not "from 1980 to 2023". A genre argument
    admits the genres the question names, and in a follow-up those the last turns asked about
    (`earlier`: the model keeps, swaps or excludes them); when neither names a genre and the
    question names movies, people or years, it is left out (nobody asked for it: "something
    like Heat" is not "Heat, and Drama"); when the question names nothing at all, it stays
    open to the model ("a feel-good film" may be a comedy). A number the user gives
    (`STATED_NUMBER`, a rating) is one they wrote when they wrote numbers (`_stated_number`).
    A tag (`x-entity` tag) is one of the graph's tags the question names
    (`semantic_layer.linking.tags`); a tool that needs one cannot be called when it names none:
    "Hidden gems similar to Memento?" went to the tag tool with the tag "hidden gems", which no
    viewer wrote. A required argument is otherwise only ever narrowed, by the numbers written;
    when none fits, the tool cannot be called (`NoValueError`), nor can a tool that needs a
    person when the question names other things and no one (`_names_no_person`). An optional person argument is left
    out then too, unless the last turns named someone: "Taxi Driver fans would enjoy what
    else?" went out with Jack Nicholson, a request like *Amores perros* with the Bill Murray of
    the argument's description."""
    kinds = kinds_of(schema)
    if STATED_NUMBER in kinds:
        number = _stated_number(schema, linked)
        if number is None and required:
            raise NoValueError("no number the question writes fits")
        return number
    if kinds == ["tag"]:  # the graph's tags the question names: nothing else to write
        tags = linked_names(linked, "tag")
        if not tags and required:
            raise NoValueError("the question names no tag")
        return {"type": "string", "enum": tags} if tags else None
    if kinds == ["person"] and _names_no_person(linked):
        if required:
            raise NoValueError("the question names things, but no person")
        if not earlier.strong_people():
            return None  # "like Ocean's Eleven" names no one: not the cast the model knows
    if required:
        return schema
    ends = {YEAR_FROM, YEAR_TO} & set(kinds)
    if ends:  # years are written (digits, decades, "recent"): linked, or nobody asked for them
        return _year_end(linked, YEAR_FROM in ends) if linked.years else None
    if "genre" not in kinds:
        return schema
    if not linked.names_something():
        return schema
    genres = list(dict.fromkeys(g.genre for g in (*linked.genres, *earlier.genres)))
    return _only(schema, genres) if genres else None


def _names_no_person(linked: Linked) -> bool:
    """Whether the question names movies, genres or years, and no person. A person's name is
    written the same in every language (a title is translated), so a tool that cannot run
    without a person is one the question does not ask for: "Best sci-fi of 1982?" was sent to
    the best films of a director the model picked itself. A last name that may be a person's
    counts (a weak mention: "Spielberg films after 2000?", where the first word's capital tells
    nothing): the model reads the question and decides; a word that is only the last name of
    people the graph holds a film or two of does not ("Best" in "Best horror movies of the
    80s?", which went out as the best films of Terry Gilliam): `names_someone`."""
    return linked.names_something() and not any(names_someone(p.best) for p in linked.people)


def _stated_number(schema: dict[str, Any], linked: Linked) -> dict[str, Any] | None:
    """A number the user gives: with no number written in digits, open in a statement that
    names a movie or writes a number in words (`Linked.rates_in_words`: "I loved Heat" is the
    model's 5; "une étoile" is shown to the model beside what the graph found, since "one of my
    favourites" is no rating of 1) and None otherwise: a question ("¿Cuántas estrellas le di a
    Speed?", which the model read as a rating of 4 to store) or a text that names no movie
    ("Recommend something for me personally." after "Alien 4 stars", which it stored again);
    with numbers written, one of those the schema's bounds admit ("4 stars", "4.5/5"), and
    None when none fits ("I'm user 42. What did I rate Heat?" gives no rating, so nothing is
    stored)."""
    numbers = linked.numbers
    if not numbers:
        return schema if linked.rates_in_words else None
    low, high = schema.get("minimum", float("-inf")), schema.get("maximum", float("inf"))
    step = schema.get("multipleOf")
    fitting = [
        n for n in dict.fromkeys(numbers)
        if low <= n <= high and (not step or float(n / step).is_integer())
    ]  # fmt: skip
    if not fitting:
        return None
    return {"type": schema.get("type", "number"), "enum": fitting}


def _year_end(linked: Linked, first: bool) -> dict[str, Any]:
    """One end of the year range the question names. A range (a decade, two years) is stated
    whole: both ends, required. A single year may be either end or both ("from 1994",
    "before 1994", "in 1994"): offered, not required."""
    years = linked.years[0]
    if years.first == years.last:
        return {"type": "integer", "enum": [years.first]}
    return {"type": "integer", "const": years.first if first else years.last, **stated()}


def _only(node: Any, allowed: list[str]) -> Any:
    if isinstance(node, list):
        return [_only(v, allowed) for v in node]
    if not isinstance(node, dict):
        return node
    out = {k: _only(v, allowed) for k, v in node.items() if k != "enum"}
    if "enum" in node:
        out["enum"] = [v for v in node["enum"] if v in allowed] or list(node["enum"])
    return out


def _offering(schema: dict[str, Any], names: list[str]) -> dict[str, Any]:
    """`schema` with each plain string in it (itself, an option of `anyOf`, a list's items)
    admitting `names` first, then any text."""
    if isinstance(schema.get("anyOf"), list):
        return {**schema, "anyOf": [_offering(o, names) for o in schema["anyOf"]]}
    if schema.get("type") == "array" and isinstance(schema.get("items"), dict):
        return {**schema, "items": _offering(schema["items"], names)}
    if schema.get("type") != "string" or "enum" in schema:
        return schema
    return {"anyOf": [{"type": "string", "enum": names}, schema]}
