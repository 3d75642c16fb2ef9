"""Whether an answer states only what this question's tool rows hold.

The linker (`semantic_layer.linking`) reads the draft answer like a question: every movie and
person it names must be one a returned row holds (a tool's help text, such as small talk's
example questions, is not a row), every movie and person named in one sentence must be linked
by a row (a film card lists the person, or the person's card lists the film; a semicolon or a
line break ends a statement as a full stop does, so the parts of a reason, "liked by 41 viewers
who liked Big (1988); with Tom Hanks", are not read as one claim that Tom Hanks is in Big), a
`Title (year)` must carry the year the row has, a film named beside a span of years ("of the
80s") must be of those years, a rating the answer reports must be the one
stored, and every year and every rating-sized decimal it writes must be one a row (or the
question) holds: "born in 1732", "4.6/5" are facts too. An answer to recommendations names at
least one of them (`unnamed_recommendations`), one to a film's directors or cast one of those
(`unnamed_people`), and it is written in the question's language
(`other_language`) and says more than the question did (`echoes_question`). `unsupported`
lists what fails; the loop then answers from the rows
instead (`agent.render`), in the question's language.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from sentencex import segment

from agent.language import detect_language, reads_as
from semantic_layer.linking.genres import genre_of
from semantic_layer.linking.linker import link
from semantic_layer.linking.mentions import Linked, MovieMention, PersonMention, YearsMention
from semantic_layer.linking.names import SURNAME, names_someone, year_after
from semantic_layer.normalize import STOPWORDS, fold
from semantic_layer.resolve.reader import Reader
from semantic_layer.tools.payloads import (
    Film,
    MovieCard,
    PersonCard,
    Recommendations,
    Rows,
    SmalltalkReply,
    StoredRating,
    YourRating,
)
from semantic_layer.tools.result import ToolResult

PERSON_FILMS = 5  # a person's answer names at least this many of their films (when they have)
_RATING = re.compile(r"(?<![\w.])([0-5](?:[.,][05])?)(?:\s*/\s*5)?(?![\w.])")  # 4, 4.5, 4.0/5
_NUMBER = re.compile(r"(?<![0-9])[0-9]+(?:[.,][0-9]+)?(?![0-9])")  # ASCII digits: 1995, 3.9, 3,9
_YEAR = re.compile(r"(?<![0-9.,])([12][0-9]{3})(?![0-9])(?![.,][0-9])")  # 1000-2099: below
_DECIMAL = re.compile(r"(?<![0-9.,])([0-9]{1,2})[.,]([0-9]{1,2})(?![0-9])(?![.,][0-9])")
_WORD = re.compile(r"\w+")
_WORD_BEFORE = re.compile(r"(\w[\w'-]*)\s+$")  # the word right before a name, as written
_SEMICOLON = re.compile(r";\s+")  # not inside a word: the title "Steins;Gate" stays whole
LAST_YEAR = 2099  # a four-digit number up to this is read as a year
RATING_SCALE = 10  # decimals up to this are ratings (MovieLens /5, IMDb /10) and are checked


@dataclass
class Facts:
    """What the rows of one question hold: movies (by id, with their year), people, and which
    person goes with which movie."""

    movies: dict[int, int | None] = field(default_factory=dict)
    titles: dict[str, int] = field(default_factory=dict)  # folded title -> a movie id held
    people: set[str] = field(default_factory=set)
    pairs: set[tuple[int, str]] = field(default_factory=set)
    texts: list[str] = field(default_factory=list)  # declared tools' rows, reasons, as text
    ratings: set[float] = field(default_factory=set)
    numbers: set[float] = field(default_factory=set)  # every number a row writes
    # a row holds the user's own rating of a movie (or says there is none): ratings are checked
    user_rating: bool = False

    def add_movie(self, film: Film | None, people: Iterable[str] = ()) -> None:
        if film is None:
            return
        self.movies[film.movie_id] = film.year
        self.titles.setdefault(fold(film.title), film.movie_id)
        for name in people:
            self.people.add(fold(name))
            self.pairs.add((film.movie_id, fold(name)))


def facts_of(results: Iterable[ToolResult | None]) -> Facts:
    """The facts the data of `results` hold (candidates offered count as rows too)."""
    facts = Facts()
    for result in results:
        if result is None or isinstance(result.data, SmalltalkReply):
            continue  # small talk's help text and examples are not facts
        facts.numbers.update(_numbers_in([result.message, result.plain_data()]))
        for candidate in result.candidates:
            if candidate.movie_id is not None:
                facts.movies[candidate.movie_id] = candidate.year
                facts.titles.setdefault(
                    fold(candidate.title or candidate.label), candidate.movie_id
                )
            if candidate.name:
                facts.people.add(fold(candidate.name))
            facts.numbers.update(_numbers_in(candidate.model_dump()))
        _add(facts, result.data)
        facts.texts += _about(result)
    return facts


def _numbers_in(value: Any) -> set[float]:
    """Every number in `value` (nested dicts and lists, numbers and texts), as floats."""
    found: set[float] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
        elif isinstance(item, bool) or item is None:
            continue
        elif isinstance(item, (int, float)):
            found.add(float(item))
        else:
            found.update(float(m.replace(",", ".")) for m in _NUMBER.findall(str(item)))
    return found


def _add(facts: Facts, data: Any) -> None:
    if isinstance(data, MovieCard):
        facts.add_movie(data, [*data.directors, *data.cast])
    elif isinstance(data, PersonCard):
        facts.people.add(fold(data.name))
        for film in [*data.acted_in, *data.directed]:
            facts.add_movie(film, [data.name])
    elif isinstance(data, Recommendations):
        for rec in data.recommendations:  # every result features each person asked for
            facts.add_movie(rec, data.basis.people)
        # a reason names the movies it comes from (the user's likes): the row holds them
        facts.texts += [fold(rec.why) for rec in data.recommendations if rec.why]
        facts.people.update(fold(name) for name in data.basis.people)
        if data.basis.movie_id is not None:
            facts.movies[data.basis.movie_id] = None
            if data.basis.movie:
                facts.titles.setdefault(fold(data.basis.movie), data.basis.movie_id)
    elif isinstance(data, StoredRating):
        facts.add_movie(data)
        facts.user_rating = True
        facts.ratings.update(r for r in (data.rating, data.previous) if r is not None)
    elif isinstance(data, YourRating):
        facts.add_movie(data)
        facts.user_rating = True
        facts.ratings.update(r for r in (data.rating,) if r is not None)
    elif isinstance(data, Film):
        facts.add_movie(data)
    elif isinstance(data, Rows):
        facts.texts += [fold(" ".join(str(v) for v in row.values())) for row in data]


def _about(result: ToolResult) -> list[str]:
    """What a declared tool's rows are about: its message names the movies and people its
    arguments resolved to ("10 rows for director: Quentin Tarantino."), words our code writes,
    so "Quentin Tarantino's best films are …" is held. Other tools' messages are not read."""
    return [fold(result.message)] if isinstance(result.data, Rows) and result.message else []


def unsupported(
    answer: str,
    results: Sequence[ToolResult | None],
    graph: Reader | None,
    language: str | None = None,
    question: str = "",
) -> list[str]:
    """What `answer` states that no row of `results` holds (empty: everything is held).
    `language`: the answer's (ISO 639-1), for where its sentences end; found when not given.
    `question`: the user's own words (and earlier turns); a number they wrote may be repeated."""
    facts = facts_of(results)
    facts.numbers.update(_numbers_in(question))
    problems: list[str] = []
    sentences = segment(language or detect_language(answer), answer)  # initials, "Dr.", "4.5"
    asked: set[int] | None = None  # the films the user named: linked once, if a span needs it
    for sentence in (c for s in sentences for c in _statements(s)):
        linked = link(graph, sentence)
        problems += _names(linked, facts, sentence)
        problems += _relations(linked, facts)
        if spans := [y for y in linked.years if y.first < y.last]:
            if asked is None:
                asked = {m.best.movie_id for m in link(graph, question).strong_movies()}
            problems += _periods(linked, spans, facts, asked)
    if graph is not None:  # as the names: read against the graph the rows came from
        problems += _numbers(answer, facts)
    if facts.user_rating:
        said = {float(m.group(1).replace(",", ".")) for m in _RATING.finditer(answer)}
        problems += [
            f"rating {r:g} (stored: {sorted(facts.ratings)})" for r in said - facts.ratings
        ]
    return list(dict.fromkeys(problems))


def answer_language(
    answer: str, graph: Reader | None, asked: str | None = None, linked: Linked | None = None
) -> str | None:
    """The language `answer` is written in, read as the agent reads a question's (titles and
    names found in the graph are no language's words): the language `asked` in when the answer
    may well be in it (`agent.language.reads_as`: a short answer in one of two close
    languages); None for no answer. `linked`: the answer linked already (`_linked`)."""
    if not answer.strip():
        return None
    spans = _linked(answer, graph, linked).name_spans() if graph is not None else []
    if asked is not None and reads_as(answer, asked, spans):
        return asked
    return detect_language(answer, spans)


def other_language(
    answer: str, language: str, graph: Reader | None, linked: Linked | None = None
) -> str | None:
    """What is wrong when `answer` is written in another language than the question's
    (`answer_language`); None when it may well be in the question's language. A small model
    copies the English of its worked examples ("Viewers who liked Toy Story (1995) also liked
    ...") into a Spanish or Japanese answer; the rows rendered in the question's language say
    the same."""
    found = answer_language(answer, graph, language, linked)
    if found in (None, language):
        return None
    return f"the answer is in {found}, the question in {language}"


def echoes_question(answer: str, question: str, results: Sequence[ToolResult | None]) -> str | None:
    """What is wrong when a tool looked something up and `answer` says nothing the question did
    not: its words are all a stretch of the question's ("Who directed Jaws?" answered with
    itself, a title the user typed answered with the title). None otherwise, and after small
    talk alone (a "Thanks!" to "thanks, that was helpful!" is a reply)."""
    if all(r is None or r.kind == "text" for r in results):
        return None
    said = " ".join(_WORD.findall(fold(answer)))
    if said and f" {said} " in f" {' '.join(_WORD.findall(fold(question)))} ":
        return "the answer only repeats the question"
    return None


def unnamed_recommendations(
    answer: str,
    results: Sequence[ToolResult | None],
    graph: Reader | None,
    linked: Linked | None = None,
) -> str | None:
    """For recommendations: what is wrong when the answer names none of them ("Viewers rated
    the best horror movies 4 stars."); None when it names one, or the last result is not a
    list of recommendations."""
    last = results[-1] if results else None
    if last is None or not isinstance(last.data, Recommendations):
        return None
    recommended = last.data.recommendations
    if not recommended:
        return None
    # a weak mention counts: "Up (2009)"
    if _named(_linked(answer, graph, linked).movies, recommended):
        return None
    folded = fold(answer)
    if any(fold(rec.title) in folded for rec in recommended):  # linking missed it
        return None
    return f"none of the {len(recommended)} recommendations named"


def unnamed_people(
    answer: str,
    results: Sequence[ToolResult | None],
    graph: Reader | None,
    linked: Linked | None = None,
) -> str | None:
    """For a film's directors or cast asked about: what is wrong when the answer names none of
    the people the card holds for it (a name written in another script, "克里斯托弗·诺兰", is
    not one a row holds; nor is an answer that repeats the question); None when it names one,
    or the last result is not a film card asked about them."""
    last = results[-1] if results else None
    if last is None or not isinstance(last.data, MovieCard):
        return None
    card = last.data
    asked = card.topics or frozenset()
    people = [
        *(card.directors if "directors" in asked else ()),
        *(card.cast if "cast" in asked else ()),
    ]
    if not people:
        return None
    named = {p.name for m in _linked(answer, graph, linked).people for p in m.candidates}
    folded = fold(answer)
    if named & set(people) or any(fold(person) in folded for person in people):
        return None
    return f"none of {card.label}'s {' or '.join(sorted(asked & {'directors', 'cast'}))} named"


def missing_films(
    answer: str,
    results: Sequence[ToolResult | None],
    graph: Reader | None,
    linked: Linked | None = None,
) -> str | None:
    """For a person's card: what is wrong when the answer names fewer of their films than
    `PERSON_FILMS` (or all of them when there are fewer); None when it names enough."""
    cards = [r.data for r in results if r is not None and isinstance(r.data, PersonCard)]
    if not cards:
        return None
    card = cards[-1]
    films = [*card.directed, *card.acted_in]
    named = _named(_linked(answer, graph, linked).strong_movies(), films)
    wanted = min(PERSON_FILMS, len({f.movie_id for f in films}))
    return (
        None if len(named) >= wanted else f"{len(named)} of {card.name}'s films named, not {wanted}"
    )


def _linked(answer: str, graph: Reader | None, linked: Linked | None) -> Linked:
    """The whole answer linked: `linked` when the caller linked it already (the loop links a
    draft once for every check that reads it whole), else linked here."""
    return linked if linked is not None else link(graph, answer)


def _named(mentions: Iterable[MovieMention], films: Iterable[Film]) -> set[int]:
    """The ids of `films` that `mentions` name."""
    facts = Facts()
    for film in films:
        facts.add_movie(film)
    return {i for mention in mentions for i in _held(mention, facts)}


def _held(movie: MovieMention, facts: Facts) -> list[int]:
    """The ids of the rows' movies that `movie` may be: the same id, or the same title (rows
    from another copy of the graph)."""
    ids = [c.movie_id for c in movie.candidates if c.movie_id in facts.movies]
    for candidate in movie.candidates:
        ids += [
            facts.titles[t]
            for t in (fold(candidate.title), fold(candidate.label))
            if t in facts.titles
        ]
    return list(dict.fromkeys(ids))


def _names(linked: Linked, facts: Facts, sentence: str) -> list[str]:
    problems = []
    for movie in linked.strong_movies():
        if genre_of(movie.text) is not None and year_after(sentence, movie.end) is None:
            continue  # "Adventure" is the genre, not *L'Avventura* (1960): a film has its year
        held = _held(movie, facts)
        if not held and not _in_texts(movie, facts):
            problems.append(f"movie {movie.best.label}")
            continue
        year = year_after(sentence, movie.end)
        if year is not None and held and all(facts.movies[i] not in (None, year) for i in held):
            problems.append(f"{movie.best.title} ({year}): the row says {facts.movies[held[0]]}")
    for person in linked.strong_people():
        names = {fold(c.name) for c in person.candidates}
        if not names & facts.people and not any(n in t for n in names for t in facts.texts):
            problems.append(f"person {person.best.name}")
    for person in linked.people:  # weak ones too: "Neil" makes "Mann" part of a longer name
        if names_someone(person.best) and (given := _other_given_name(sentence, person)):
            problems.append(f"person {given} {person.text}: the rows hold {person.best.name}")
    return problems


def _other_given_name(sentence: str, person: PersonMention) -> str | None:
    """The name written right before a last name the linker found alone, when none of the
    people of that last name bears it: "Neil Armstrong acted in ..." names someone the rows
    do not hold, though the rows hold Curtis Armstrong. None where the last name stands alone
    ("films by Nolan") or after an ordinary word ("The Nolan film")."""
    if person.best.score > SURNAME:
        return None  # found by the full name
    before = _WORD_BEFORE.search(sentence[: person.start])
    if before is None or not before.group(1)[:1].isupper():
        return None
    given = fold(before.group(1))
    if given in STOPWORDS or any(given in fold(c.name).split() for c in person.candidates):
        return None
    return before.group(1)


def _relations(linked: Linked, facts: Facts) -> list[str]:
    """A movie and a person named in one sentence must be linked by a row."""
    problems = []
    movies = [
        m for m in linked.strong_movies() if any(c.movie_id in facts.movies for c in m.candidates)
    ]
    people = [
        p for p in linked.strong_people() if {fold(c.name) for c in p.candidates} & facts.people
    ]
    for movie in movies:
        for person in people:
            ids = set(_held(movie, facts))
            names = {fold(c.name) for c in person.candidates}
            if not any((i, n) in facts.pairs for i in ids for n in names):
                problems.append(f"{person.best.name} with {movie.best.label}")
    return problems


def _periods(linked: Linked, spans: list[YearsMention], facts: Facts, asked: set[int]) -> list[str]:
    """A film named beside a span of years the statement gives it (`spans`, of `linked`:
    "horror films of the 80s were Aliens (1986) and Misery (1990)", "degli anni 90") must be
    of those years, as its row says (a declared tool's row holds it as text: the linked film's
    year); the films the user named (`asked`) are what the others are like ("movies like Taxi
    Driver (1976) from the 1980s"). A single year is no span: the words around it may open it
    ("1970 or earlier")."""
    problems = []
    for movie in (m for m in linked.strong_movies() if m.best.movie_id not in asked):
        years = {y for i in _held(movie, facts) if (y := facts.movies[i]) is not None}
        if not years and movie.best.year is not None and _in_texts(movie, facts):
            years = {movie.best.year}  # a declared tool's row, as text: the film linked is it
        for span in spans:
            if years and not any(span.first <= year <= span.last for year in years):
                problems.append(f"{movie.best.label} is not of {span.text}")
    return problems


def _in_texts(movie: MovieMention, facts: Facts) -> bool:
    """Whether a row held as text (a declared tool's, a recommendation's reason) names it."""
    return any(movie.best.name.casefold() in t for t in facts.texts)


def _statements(sentence: str) -> list[str]:
    """A sentence's statements: its lines (a list's heading and items need not end in a full
    stop), each cut at its semicolons."""
    return [
        part for line in sentence.splitlines() for part in _SEMICOLON.split(line) if part.strip()
    ]


def _numbers(answer: str, facts: Facts) -> list[str]:
    """The years and ratings `answer` writes that no row holds ("born in 1732")."""
    problems = [
        f"year {m.group(1)}"
        for m in _YEAR.finditer(answer)
        if int(m.group(1)) <= LAST_YEAR and float(m.group(1)) not in facts.numbers
    ]
    for m in _DECIMAL.finditer(answer):
        value = float(f"{m.group(1)}.{m.group(2)}")
        slack = 0.5 * 10 ** -len(m.group(2)) + 1e-9  # "3.9" for a row's 3.93: rounded
        if value <= RATING_SCALE and not any(abs(value - n) <= slack for n in facts.numbers):
            problems.append(f"number {m.group(0)}")
    return problems
