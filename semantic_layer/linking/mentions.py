"""What linking found in a text: typed mentions with their candidates and scores.

A mention is a span of the text (as written, with its character offsets) and what it may name:
movies or people from the graph (best first, each with how alike its name is to the span), one
genre, or a range of years. `Linked` gathers them for one text.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

Strength = Literal["strong", "weak"]


class MovieMatch(BaseModel):
    movie_id: int
    title: str
    year: int | None = None
    name: str  # the name it was found by: the title or an alias
    score: float  # 0..1, how alike that name is to the span
    rating_count: int = 0

    @property
    def label(self) -> str:
        return f"{self.title} ({self.year})" if self.year else self.title


class PersonMatch(BaseModel):
    name: str
    score: float
    directed: int = 0
    acted: int = 0

    @property
    def role(self) -> str:
        """What the graph mostly holds them as: "director" or "actor"."""
        return "director" if self.directed > self.acted else "actor"


class Mention(BaseModel):
    text: str  # the span as written
    start: int
    end: int
    strength: Strength = "strong"  # weak: one ordinary word that may not be a name at all


class MovieMention(Mention):
    kind: Literal["movie"] = "movie"
    candidates: list[MovieMatch] = Field(min_length=1)
    year: int | None = None  # written in brackets right after the title: "Psycho (1998)"

    @property
    def best(self) -> MovieMatch:
        return self.candidates[0]

    def sharing_title(self) -> list[MovieMatch]:
        """The candidates titled as the best one is: films the title alone does not tell apart
        ("Titanic": 1953 and 1997)."""
        return [c for c in self.candidates if c.title == self.best.title]


class PersonMention(Mention):
    kind: Literal["person"] = "person"
    candidates: list[PersonMatch] = Field(min_length=1)

    @property
    def best(self) -> PersonMatch:
        return self.candidates[0]


class GenreMention(Mention):
    kind: Literal["genre"] = "genre"
    genre: str


class TagMention(Mention):
    """A tag viewers gave movies, as the graph holds it (lower case)."""

    kind: Literal["tag"] = "tag"
    tag: str


class YearsMention(Mention):
    kind: Literal["years"] = "years"
    first: int
    last: int


class SpelledNumber(BaseModel):
    """A number written in words ("trois" is 3), with the words that write it."""

    value: float
    text: str


class Linked(BaseModel):
    """Everything linking found in one text, each kind in the order of the text."""

    movies: list[MovieMention] = Field(default_factory=list)
    people: list[PersonMention] = Field(default_factory=list)
    genres: list[GenreMention] = Field(default_factory=list)
    years: list[YearsMention] = Field(default_factory=list)
    tags: list[TagMention] = Field(default_factory=list)
    #: numbers written in digits outside names and years ("4", "4.5"; not the 5 of "/5"): what
    #: a number the user states may be (`semantic_layer.linking.arguments.STATED_NUMBER`)
    numbers: list[float] = Field(default_factory=list)
    #: the text is a statement that names a movie itself, so its words may rate that movie ("I
    #: loved Heat"); a question ("Quantas estrelas eu dei para Amadeus?") rates none in words,
    #: nor does a text that names no movie ("Recommend something for me personally.", after
    #: ratings were given earlier in the conversation) unless it writes a number in words
    #: ("Give it four stars", `semantic_layer.linking.numbers.with_spelled`)
    rates_in_words: bool = False
    #: numbers written in words ("trois étoiles"), read once the text's language is known
    #: (`semantic_layer.linking.numbers.with_spelled`): a word may be a number or an article
    #: ("un film"), so the model reads whether they rate
    spelled: list[SpelledNumber] = Field(default_factory=list)

    def strong_movies(self) -> list[MovieMention]:
        return [m for m in self.movies if m.strength == "strong"]

    def strong_people(self) -> list[PersonMention]:
        return [p for p in self.people if p.strength == "strong"]

    def dated_movies(self) -> set[int]:
        """The films the text writes with their year ("Titanic (1997)"), and those a year it
        writes picks among films that share a title ("the 2002 Solaris")."""
        dated: set[int] = set()
        for movie in self.movies:
            if movie.year is not None:
                dated |= {c.movie_id for c in movie.candidates if c.year == movie.year}
                continue
            same = movie.sharing_title()
            picked = [c for c in same if self.writes_year(c.year)]
            if len(same) > 1 and len(picked) == 1:
                dated.add(picked[0].movie_id)
        return dated

    def name_spans(self) -> list[tuple[int, int]]:
        """Where the text writes the movies and people it names (strong mentions)."""
        named: list[Mention] = [*self.strong_movies(), *self.strong_people()]
        return [(m.start, m.end) for m in named]

    def writes_year(self, year: int | None) -> bool:
        """Whether the text writes `year`, alone or in a range ("2002", "the 90s")."""
        return year is not None and any(y.first <= year <= y.last for y in self.years)

    def mentions(self) -> list[MovieMention | PersonMention]:
        """The movies and people, movies first."""
        return [*self.movies, *self.people]

    def names_something(self) -> bool:
        """Whether the text names a movie or a person (strongly), a genre or years."""
        return bool(self.strong_movies() or self.strong_people() or self.genres or self.years)

    def is_empty(self) -> bool:
        return not (self.movies or self.people or self.genres or self.years)

    def merged(self, other: Linked) -> Linked:
        """This text's mentions, then `other`'s of things not mentioned here."""
        movies = {c.movie_id for m in self.movies for c in m.candidates}
        people = {c.name for p in self.people for c in p.candidates}
        genres = {g.genre for g in self.genres}
        return Linked(
            movies=self.movies + [m for m in other.movies if m.best.movie_id not in movies],
            people=self.people + [p for p in other.people if p.best.name not in people],
            genres=self.genres + [g for g in other.genres if g.genre not in genres],
            years=self.years or other.years,
            tags=self.tags,  # what this text asks for by its viewers' words
            numbers=self.numbers,  # what this text states, never an earlier one
            rates_in_words=self.rates_in_words,  # this text's, as its numbers
            spelled=self.spelled,
        )
