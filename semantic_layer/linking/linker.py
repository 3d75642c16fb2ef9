"""`link`: the movies, people, genres and years a text mentions (see `semantic_layer.linking`).

Movies and people come from the graph's full-text indexes (`names`), genres from the genre
vocabulary (`genres`), years and decades from digits and words (`years`; "recent" ends at the
graph's latest movie). A one-word movie or person inside a longer mention of the other kind is
dropped ("Heat" in "Heath Ledger" cannot happen, "Ford" in "Harrison Ford" can), and genre
words inside a title or name do not count (inside a weak mention they do: "romance" is the
genre even though a movie is called Romance). Years named apart from titles make one range
("between 1960 and 1975").
"""

from __future__ import annotations

from collections.abc import Sequence

from semantic_layer.linking.genres import genre_mentions
from semantic_layer.linking.mentions import (
    Linked,
    Mention,
    MovieMention,
    PersonMention,
    YearsMention,
)
from semantic_layer.linking.names import (
    KNOWN,
    SURNAME,
    movie_mentions,
    names_someone,
    person_mentions,
)
from semantic_layer.linking.numbers import digits
from semantic_layer.linking.tags import tag_mentions
from semantic_layer.linking.tokens import Span, asks, words
from semantic_layer.linking.years import as_range, years_mentions
from semantic_layer.normalize import normalize_title
from semantic_layer.resolve.reader import Reader

MAX_TEXT = 2000  # characters of a text that are linked


def link(graph: Reader | None, text: str) -> Linked:
    """Everything `text` mentions that the graph knows (genres and years without a graph)."""
    text = text[:MAX_TEXT]
    found = words(text)
    movies = movie_mentions(graph, text, found) if graph is not None and found else []
    people = person_mentions(graph, text, found) if graph is not None and found else []
    movies = [m for m in movies if not _inside_other(m, people)]
    people = [
        p
        for p in people
        if not (_inside_other(p, movies) and not _same_place(p, movies))
        and not _surname_of_a_title(p, movies)
    ]
    surnames = [p for p in people if p.best.score <= SURNAME]
    movies = [m for m in movies if not _same_place(m, surnames)]  # "a Hitchcock film"
    taken = [Span(0, 0, m.start, m.end, m.text) for m in [*movies, *people]]
    names = [t for t, m in zip(taken, [*movies, *people], strict=True) if m.strength == "strong"]
    every_year = years_mentions(text, (lambda: latest_year(graph)) if graph else None)
    years = [
        y for y in every_year
        if not any(_part_of(y, t) or _dates(text, t.end, y.start) for t in taken)
    ]  # fmt: skip
    genres = genre_mentions(text, names)
    return Linked(
        movies=movies,
        people=people,
        genres=genres,
        years=as_range(years, text),
        tags=tag_mentions(graph, text, found, names, genres) if graph is not None else [],
        numbers=digits(text, _spans([*names, *every_year])),  # a weak "42" is the number
        rates_in_words=any(m.strength == "strong" for m in movies) and not asks(text),
    )


def _spans(taken: Sequence[Span | Mention]) -> list[tuple[int, int]]:
    return [(t.start, t.end) for t in taken]


def latest_year(graph: Reader) -> int | None:
    """The year of the graph's latest movie (None in an empty graph)."""
    rows = graph.read("resolve/latest_year")
    year = rows[0]["year"] if rows else None
    return int(year) if year is not None else None


def _part_of(years: YearsMention, name: Span) -> bool:
    """Whether a year is written as part of a longer title or name ("2001: A Space Odyssey",
    "Blade Runner 2049"). A title that is the year alone ("2012", "1984") is the year as much
    as the film: both are kept, and the model decides which one the question means (see
    `agent.grammar._kinds_named`): "horror movies newer than 2012" asks for years."""
    inside = name.start <= years.start < name.end
    return inside and (name.start, name.end) != (years.start, years.end)


def _dates(text: str, end: int, start: int) -> bool:
    """Whether a year at `start` is the year of the title ending at `end`: "Heat (1995)"."""
    return 0 < start - end <= 3 and text[end:start].strip() == "("


def _surname_of_a_title(person: PersonMention, movies: Sequence[MovieMention]) -> bool:
    """A last name alone, written where a title is, that gives way to the title: the title of a
    movie many people rated ("Patton" is the film, not Will Patton), a title written with a
    year in brackets ("Hitchcock (2012)"), or a name the graph holds too few films of to name
    someone by it ("Fargo" is not James Fargo). Otherwise the person is meant ("a Hitchcock
    film" is Alfred Hitchcock's, not *Hitchcock* (2012), which five people rated)."""
    return person.best.score <= SURNAME and any(
        _same_place(m, [person])
        and (m.best.rating_count >= KNOWN or m.year is not None or not names_someone(person.best))
        for m in movies
    )


def _same_place(mention: Mention, others: Sequence[Mention]) -> bool:
    """Whether another mention is written with the same words, a title's leading article aside
    ("a Hitchcock", "Hitchcock")."""
    return any(
        o.start < mention.end
        and mention.start < o.end
        and normalize_title(o.text) == normalize_title(mention.text)
        for o in others
    )


def _inside_other(mention: Mention, others: Sequence[Mention]) -> bool:
    """Strictly inside a longer mention of the other kind."""
    return any(
        o.start <= mention.start
        and mention.end <= o.end
        and (o.end - o.start) > (mention.end - mention.start)
        for o in others
    )
