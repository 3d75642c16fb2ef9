"""The answers the agent writes itself, in the user's language: from the tools' typed results
alone when the model's draft names something no row holds or is cut short, the question that
asks which one while candidates are pending, and the sentence for a step limit.

Every name, year, count and rating in it is read from the payload; the words around them are
template files, `agent/prompts/render/<language>/<name>.txt` (`$name` placeholders, the inputs
declared by the call that fills them and checked when loaded). A language without a file gets
English. Lists are joined with the language's own comma and "and" (`list_more`, `list_last`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

from agent.observation import labelled
from agent.prompt import PROMPTS_DIR, PromptTemplate
from semantic_layer.tools.payloads import (
    Film,
    MovieCard,
    PersonCard,
    Recommendations,
    Record,
    Rows,
    SmalltalkReply,
    StoredRating,
    YourRating,
)
from semantic_layer.tools.result import Candidate, ToolResult

__all__ = ["capabilities", "render_answer", "step_limit", "which_one"]

DEFAULT_LANGUAGE = "en"
RENDER_DIR = "render"
MAIN_CAST = 4  # actors named for a movie
FILMS_PER_ROLE = 10  # films listed per role (directed, acted in) for a person
RECOMMENDED = 5  # recommendations listed
ROWS = 5  # rows of a declared tool listed
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


@cache
def _template(
    language: str, name: str, inputs: frozenset[str], directory: Path = PROMPTS_DIR
) -> PromptTemplate:
    own = directory / RENDER_DIR / language / f"{name}.txt"
    chosen = language if own.is_file() else DEFAULT_LANGUAGE
    return PromptTemplate.load(f"{RENDER_DIR}/{chosen}/{name}", inputs, directory)


def _say(language: str, template: str, /, **values: str) -> str:
    """The `template` file of the language, filled with `values` (its declared inputs)."""
    return _template(language, template, frozenset(values)).format(**values)


def _join(language: str, items: Sequence[str]) -> str:
    """`a, b and c` in the language's words."""
    if not items:
        return ""
    joined = items[0]
    for item in items[1:-1]:
        joined = _say(language, "list_more", items=joined, item=item)
    if len(items) > 1:
        joined = _say(language, "list_last", items=joined, item=items[-1])
    return joined


def _number(value: float) -> str:
    """4.0 as `4`, 3.5 as `3.5`: the stored value, exactly."""
    return f"{value:g}"


def _movie(card: MovieCard, language: str) -> str:
    """The title and year, then the directors, main cast and genres: those of them the model
    reads of the card (`unread_by_the_model`: asked who directed Heat, its directors), or all
    three when it reads none of them (asked about the year or the ratings)."""
    unread = card.unread_by_the_model()
    if "directors" in unread and "cast" in unread and "genres" in unread:
        unread = frozenset()
    directors = [] if "directors" in unread else card.directors
    if directors:
        sentences = [
            _say(language, "movie_directed", movie=card.label, names=_join(language, directors))
        ]
    else:
        sentences = [_say(language, "movie", movie=card.label)]
    if card.cast and "cast" not in unread:
        sentences.append(_say(language, "movie_cast", names=_join(language, card.cast[:MAIN_CAST])))
    if card.genres and "genres" not in unread:
        sentences.append(_say(language, "movie_genres", names=_join(language, card.genres)))
    return " ".join(sentences)


def _films(films: Sequence[Film], language: str) -> str:
    return _join(language, [film.label for film in films[:FILMS_PER_ROLE]])


def _person(card: PersonCard, language: str) -> str:
    """The roles the question asked about (what someone directed, or acted in), or every role
    they have when it asked about neither or they have no film in those it asked about; best
    known first as the card orders them, with the counts of all."""
    unread = card.unread_by_the_model()
    roles = [
        (template, films, count, field)
        for template, films, count, field in (
            ("person_directed", card.directed, card.directed_count, "directed"),
            ("person_acted", card.acted_in, card.acted_in_count, "acted_in"),
        )
        if films
    ]
    asked = [role for role in roles if role[3] not in unread]
    lines = [
        _say(language, template, name=card.name, count=str(count), films=_films(films, language))
        for template, films, count, _ in asked or roles
    ]
    return "\n".join(lines) or _say(language, "person_none", name=card.name)


def _reason(item: Any) -> str:
    """Why a movie is recommended, as the payload words it (empty when it does not)."""
    for field in ("why", "reason"):  # read defensively: the payload gains fields
        value = getattr(item, field, None)
        if isinstance(value, str) and value.strip():
            return value.strip()
    return ""


def _recommendations(payload: Recommendations, language: str) -> str:
    basis_movie = getattr(payload.basis, "movie", None)
    head = (
        _say(language, "recommendations_like", movie=basis_movie)
        if isinstance(basis_movie, str) and basis_movie
        else _say(language, "recommendations")
    )
    lines = [head]
    for item in payload.recommendations[:RECOMMENDED]:
        lines.append(_recommendation(item, language))
    return "\n".join(lines)


def _recommendation(item: Any, language: str) -> str:
    """One recommended movie with its reason. The tool words its reasons in English
    (`semantic_layer.recommend.reasons`): in another language the row says what the rating and
    the number of ratings it holds are, in that language's words."""
    why = _reason(item)
    if why and language == DEFAULT_LANGUAGE:
        return _say(language, "recommendation", movie=item.label, why=why)
    rating, count = getattr(item, "rating_avg", None), getattr(item, "rating_count", None)
    if rating is not None and count:
        return _say(
            language,
            "recommendation_rated",
            movie=item.label,
            rating=f"{rating:.1f}",
            count=str(count),
        )
    return _say(language, "recommendation_plain", movie=item.label)


def _rating(payload: StoredRating, language: str) -> str:
    if payload.previous is None:
        return _say(language, "rating", rating=_number(payload.rating), movie=payload.label)
    return _say(
        language,
        "rating_replaced",
        rating=_number(payload.rating),
        movie=payload.label,
        previous=_number(payload.previous),
    )


def _your_rating(payload: YourRating, language: str) -> str:
    if payload.rating is None:
        return _say(language, "rating_unrated", movie=payload.label)
    return _say(language, "rating_yours", rating=_number(payload.rating), movie=payload.label)


def _row(row: dict[str, Any]) -> str:
    """A declared tool's row as the model reads it: its movie label (or first value) first,
    then each other column by its name ("Heat (1995): rating avg 4.25, rating count 110")."""
    kept = {
        key: value for key, value in row.items()
        if value is not None and value != "" and not isinstance(value, (dict, list))
    }  # fmt: skip
    shown = labelled(kept)
    if not isinstance(shown, dict):
        return str(shown)
    if not shown:
        return ""
    first, *rest = shown.items()
    values = [f"{_words(key)} {_value(value)}" for key, value in rest]
    return f"{_value(first[1])}: {', '.join(values)}" if values else _value(first[1])


def _words(column: str) -> str:
    """A column's name as words: `ratingAvg` and `rating_avg` are "rating avg"."""
    return _CAMEL.sub(" ", column).replace("_", " ").lower()


def _value(value: Any) -> str:
    return _number(value) if isinstance(value, float) else str(value)


def _rows(rows: Sequence[dict[str, Any]], language: str) -> str:
    lines = [_say(language, "rows", count=str(len(rows)))]
    lines += [_say(language, "row", row=_row(row)) for row in rows[:ROWS]]
    return "\n".join(lines)


def _empty(result: ToolResult) -> bool:
    data = result.data
    if isinstance(data, Recommendations):
        return not data.recommendations
    if isinstance(data, Rows):
        return not len(data)
    if isinstance(data, Record):
        return not data.root
    return data is None


def _useful(result: ToolResult) -> bool:
    if result.kind == "candidates":
        return bool(result.candidates)
    return result.ok and not _empty(result)


def _render(result: ToolResult, language: str) -> str:
    data = result.data
    if result.kind == "candidates":
        return which_one(result.candidates, language)
    if isinstance(data, MovieCard):
        return _movie(data, language)
    if isinstance(data, PersonCard):
        return _person(data, language)
    if isinstance(data, Recommendations):
        return _recommendations(data, language)
    if isinstance(data, StoredRating):
        return _rating(data, language)
    if isinstance(data, YourRating):
        return _your_rating(data, language)
    if isinstance(data, SmalltalkReply):
        return _say(language, "smalltalk")
    if isinstance(data, Rows):
        return _rows(list(data), language)
    if isinstance(data, Record):
        return _rows([data.root], language)
    return _say(language, "nothing_found")


def which_one(candidates: Sequence[Candidate], language: str) -> str:
    """The question that asks the user to choose: "Did you mean …?" for one candidate, else
    the titles or the people that match. Names to choose from are never stated as facts."""
    if len(candidates) == 1:
        return _say(language, "candidate_one", option=candidates[0].label)
    options = _join(language, [c.label for c in candidates])
    people = all(c.movie_id is None and c.title is None for c in candidates)
    return _say(language, "candidates_people" if people else "candidates", options=options)


def step_limit(steps: int, language: str) -> str:
    """The answer when the loop ran out of steps with nothing to render."""
    return _say(language, "step_limit", steps=str(steps))


def capabilities(language: str) -> str:
    """One sentence saying what the agent can do, in `language`: the answer to a question no
    tool answered (greetings, questions that are not about movies)."""
    return _say(language, "smalltalk")


def render_answer(results: Sequence[ToolResult], language: str) -> str:
    """A short answer from the last result that holds something (data or candidates to choose
    from), in `language` (an ISO 639-1 code; English where no template set exists). With none,
    the last failure: a name nothing in the graph is called said in `language`, another the
    tool's own message; or a sentence that nothing was found."""
    for result in reversed(results):
        if _useful(result):
            return _render(result, language)
    for result in reversed(results):
        if result.unmatched:
            return _say(language, "unmatched", name=result.unmatched)
        if result.message and not result.ok:
            return result.message
    return _say(language, "nothing_found")
