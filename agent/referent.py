"""What a follow-up that names nothing itself points at: the model writes the question again
with the title or name in place of the words that point back, and linking reads the names it
wrote among those the last turns named.

"What else has he directed?" after "Alien (1979) was directed by Ridley Scott.", "Who directed
the second one?" after three films: the question names no movie, person, genre or years, so
the step has nothing of its own to read, and a small model took the film the last turns were
about as one to recommend from ("Did he make any other films?" after *Jaws*'s director went to
the recommender with *Jaws*). Asked to choose among the conversation's names, the instrument
model took the first one offered whatever the question said; asked to write the question
again, it writes "What else has Ridley Scott directed?" (the condensed question of
conversational retrieval). So before the step the model writes the question again, in one
short constrained reply, and linking finds in it the first of the movies and people the last
turns named (the last answer's, then those the user asked about); the step then reads the
question with that one as what it is about, and the grammar offers its name. The rewrite's
grammar makes it write one of those names (left free, the model copied the question whenever it
hesitated); without a grammar, a rewrite that names none of them changes nothing. Nothing here
reads the question's words: the rewrite is the model's, the names the graph's.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from pydantic import BaseModel, Field, ValidationError

from semantic_layer.linking.linker import link
from semantic_layer.linking.mentions import Linked, MovieMention, PersonMention
from semantic_layer.resolve.reader import Reader

REFERENT_TOKENS = 60  # the question written again
MAX_OPTIONS = 8

Option = MovieMention | PersonMention


class Rewritten(BaseModel):
    """The reply: the user's question written again, naming what it points at."""

    question: str = Field(max_length=300)


def rewrite_schema(offered: Sequence[Option]) -> dict[str, Any]:
    """The reply's grammar: one JSON object holding the question, which must write one of the
    names `offered` (a title without its year, or a person's name) somewhere in it. Left free,
    the instrument model copied the question unchanged whenever it hesitated ("When was the first
    one released?"); made to name one, it writes the one the question points at ("When was the
    first one released? (Gattaca)"). What it writes before and after the name stays free."""
    schema = Rewritten.model_json_schema()
    schema["additionalProperties"] = False
    names = sorted({written(option) for option in offered}, key=len, reverse=True)
    literals = [_literal(name) for name in names if not _QUOTED.intersection(name)]
    if literals:
        free = r'[^"\\]*'
        schema["properties"]["question"]["pattern"] = f"^{free}({'|'.join(literals)}){free}$"
    return schema


_QUOTED = set('"\\')  # a name a JSON string would have to escape is left out of the choice
_SPECIAL = set("[]()|{}*+?")


def _literal(name: str) -> str:
    """`name` as a regular expression that matches only itself, in the subset every backend's
    schema-to-grammar converter reads alike (llama.cpp's reads `\\.` as a grammar escape, so a
    dot, a caret and a dollar sign are one-character classes)."""
    return "".join(f"\\{c}" if c in _SPECIAL else f"[{c}]" if c in ".^$" else c for c in name)


def written(option: Option) -> str:
    """How the rewrite writes an option: "Alien", "Ridley Scott"."""
    return option.best.title if isinstance(option, MovieMention) else option.best.name


def label(option: Option) -> str:
    """How an option is named: "Alien (1979)", "Ridley Scott"."""
    return option.best.label if isinstance(option, MovieMention) else option.best.name


def options(asked: Linked, answer: Linked, rated: Callable[[set[int]], set[int]]) -> list[Option]:
    """What a follow-up may point at: the movies and people the last answer names, in its order
    (the films of a list, the cast of a film), then those the user asked about in the last turns
    (`asked`), once each. A film the user has rated (`rated` says which of some films) is not
    one: their ratings speak for it ("What else would suit me?" after "Blade Runner and Alien,
    both 5 stars" is a request by their taste, not like either film)."""
    answered: list[Option] = [*answer.strong_movies(), *answer.strong_people()]
    named = sorted(answered, key=lambda m: m.start)
    named += [*asked.strong_movies(), *asked.strong_people()]
    films = {m.best.movie_id for m in named if isinstance(m, MovieMention)}
    rated_ids = rated(films) if films else set()
    chosen: dict[str, Option] = {}
    for option in named:
        if isinstance(option, MovieMention) and option.best.movie_id in rated_ids:
            continue
        chosen.setdefault(label(option), option)
    return list(chosen.values())[:MAX_OPTIONS]


def pointed_at(reply: str, offered: Sequence[Option], graph: Reader) -> Linked | None:
    """The first of `offered` the rewritten question in `reply` names, as a `Linked` of that one
    mention; None when it names none of them (or the reply holds no question)."""
    try:
        question = Rewritten.model_validate_json(reply).question
    except ValidationError:
        return None
    by_label = {label(option): option for option in offered}
    found = link(graph, question)
    named = sorted((m for m in found.mentions() if m.strength == "strong"), key=lambda m: m.start)
    for mention in named:
        option = by_label.get(label(mention))
        if isinstance(option, MovieMention):
            return Linked(movies=[option])
        if isinstance(option, PersonMention):
            return Linked(people=[option])
    return None
