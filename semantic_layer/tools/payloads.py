"""Typed payloads of the tools' results: what the UI reads as attributes, MCP as structured content.

Attributes are snake_case; each dumps under its camelCase alias (`movie_id` as `movieId`), the
keys of the JSON the model reads in its Observation, so that JSON is the same as when the data
were plain dicts. Fields dump in the order declared here, None included (the agent's
Observation drops empty values itself, `agent.observation`).

A built-in tool returns one of the models; a tool declared by a `.cypher` file returns `Rows`;
a foreign tool's structured output is a `Record`.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator
from dataclasses import dataclass
from typing import Annotated, Any, ClassVar, Self

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, RootModel
from pydantic.alias_generators import to_camel
from pydantic.fields import FieldInfo

__all__ = [
    "BUILT_IN_PAYLOADS",
    "AnswersAbout",
    "Basis",
    "Film",
    "FirstForTheModel",
    "MovieCard",
    "Payload",
    "PersonCard",
    "Recommendation",
    "Recommendations",
    "Record",
    "Rows",
    "SmalltalkReply",
    "StoredRating",
    "YourRating",
    "for_the_model",
]


class NotForTheModel:
    """Field metadata (`Annotated[..., NOT_FOR_THE_MODEL]`): the UI and MCP clients get the
    field, the model's Observation leaves it out (the model does not need it to answer, and
    every token it reads costs prefill time)."""


NOT_FOR_THE_MODEL = NotForTheModel()


@dataclass(frozen=True)
class FirstForTheModel:
    """Field metadata (`Annotated[list[...], FirstForTheModel(3)]`): the model's Observation
    holds the first `rows` of the list; the UI and MCP clients get all of it."""

    rows: int


@dataclass(frozen=True)
class AnswersAbout:
    """Field metadata (`Annotated[..., AnswersAbout("cast")]`): the field answers questions about
    `topic`. A card asked about some topics (`asked_about`) shows the model the fields of those
    topics and those that answer no topic in particular (a movie's label, a person's name); the
    UI and MCP clients get every field."""

    topic: str


def _topics_of(field: FieldInfo) -> frozenset[str]:
    return frozenset(m.topic for m in field.metadata if isinstance(m, AnswersAbout))


class _Card(BaseModel):
    model_config = ConfigDict(
        alias_generator=to_camel,
        validate_by_name=True,
        validate_by_alias=True,
        serialize_by_alias=True,
        extra="forbid",  # a dict of another shape is not taken for this card
        frozen=True,
    )

    #: rows of each of the card's lists the model reads (None: the reader's default)
    rows_for_the_model: ClassVar[int | None] = None
    #: the card states all an answer can say (a rating stored or read, what the agent does):
    #: the agent renders the answer from it instead of asking the model to write one
    answers_itself: ClassVar[bool] = False

    #: the topics the question asked about (`asked_about`); None: the model reads every field
    _topics: frozenset[str] | None = PrivateAttr(default=None)

    def asked_about(self, topics: Iterable[str]) -> Self:
        """This card, with the model reading only the fields that answer one of `topics` (marked
        `AnswersAbout`) and those that answer none in particular: asked who directed a movie,
        its label and directors (every other field is prefill time before the answer's first
        word)."""
        card = self.model_copy()
        card._topics = frozenset(topics)
        return card

    @property
    def topics(self) -> frozenset[str] | None:
        """The topics the question asked about (`asked_about`); None: about everything."""
        return self._topics

    def unread_by_the_model(self) -> frozenset[str]:
        """Names of the fields of this card the model does not read, besides those marked
        `NOT_FOR_THE_MODEL`: those that answer only topics the question did not ask about."""
        if self._topics is None:
            return frozenset()
        return frozenset(
            name
            for name, field in type(self).model_fields.items()
            if (answers := _topics_of(field)) and not answers & self._topics
        )

    def answers(self, named: Collection[str], *, narrowed: bool) -> bool:
        """Whether this card states all an answer to the question can say, so the agent renders
        the answer from it: `named` are the movies and people the question names, `narrowed`
        whether it also names genres or years the card cannot sort by."""
        return self.answers_itself

    def read_by_the_model_as(self) -> dict[str, Any]:
        """Fields the model reads in a shorter form than other readers get (field name ->
        what the model reads): none, unless the card says otherwise."""
        return {}


class Film(_Card):
    """A movie as a line: in a person's filmography, or the head of a larger card."""

    movie_id: int
    title: str
    year: int | None = None

    @property
    def label(self) -> str:
        """`Title (year)`, or the title alone when the year is unknown."""
        return f"{self.title} ({self.year})" if self.year else self.title


class Recommendation(Film):
    # the model reads a row as its label and its reason, briefly where the recommender says so
    # (`briefly`: the rating or the viewers behind the pick and a person's role, not what the
    # result's message says of every row); the rest is for the UI and MCP clients
    genres: Annotated[list[str], NOT_FOR_THE_MODEL] = Field(default_factory=list)
    rating_avg: Annotated[float | None, NOT_FOR_THE_MODEL] = None
    rating_count: Annotated[int | None, NOT_FOR_THE_MODEL] = None
    why: str  # in words: what it is like or comes from, and the constraints it meets

    #: the reason less what the result's message says of every row (`briefly`)
    _brief: str | None = PrivateAttr(default=None)

    def briefly(self, why: str) -> Recommendation:
        """This row, with the model reading `why` as its reason ("liked by 42 viewers", where
        the message says which movie they liked): the rest is prefill time before the answer."""
        row = self.model_copy()
        row._brief = why
        return row

    def read_by_the_model_as(self) -> dict[str, Any]:
        return {} if self._brief is None else {"why": self._brief}


def _none(value: Any) -> bool:
    return value is None


def _empty(value: Any) -> bool:
    return not value


class Basis(_Card):
    """What recommendations started from and were held to; only the keys that apply are
    written. `movie`/`movie_id`: the first (or only) movie named, `movies`: all of them;
    `loosened`: the constraints relaxed because too few movies satisfied them. The result's
    message says all of it but the note on a misspelled title, the one key the model reads."""

    movie: Annotated[str | None, NOT_FOR_THE_MODEL] = Field(default=None, exclude_if=_none)
    movie_id: int | None = Field(default=None, exclude_if=_none)
    movies: Annotated[list[str], NOT_FOR_THE_MODEL] = Field(default_factory=list, exclude_if=_empty)
    note: str | None = Field(default=None, exclude_if=_none)
    genres: Annotated[list[str], NOT_FOR_THE_MODEL] = Field(default_factory=list, exclude_if=_empty)
    exclude_genres: Annotated[list[str], NOT_FOR_THE_MODEL] = Field(
        default_factory=list, exclude_if=_empty
    )
    people: Annotated[list[str], NOT_FOR_THE_MODEL] = Field(default_factory=list, exclude_if=_empty)
    years: Annotated[str | None, NOT_FOR_THE_MODEL] = Field(default=None, exclude_if=_none)
    popularity: Annotated[str | None, NOT_FOR_THE_MODEL] = Field(default=None, exclude_if=_none)
    user: Annotated[str | None, NOT_FOR_THE_MODEL] = Field(default=None, exclude_if=_none)
    loosened: Annotated[str | None, NOT_FOR_THE_MODEL] = Field(default=None, exclude_if=_none)
    # the other films of the title of `movie`, when it was taken as the best known of them
    same_title: Annotated[list[str], NOT_FOR_THE_MODEL] = Field(
        default_factory=list, exclude_if=_empty
    )


class Recommendations(_Card):
    basis: Basis
    recommendations: list[Recommendation]

    # an answer names the rows it reads: every one costs prefill time before the first word and
    # about ten tokens written; three make a list, and the UI and MCP get every row
    rows_for_the_model = 3


class MovieCard(Film):
    """The facts the graph holds about one movie, and the session user's own rating."""

    also_known_as: Annotated[list[str], AnswersAbout("everything")] = Field(default_factory=list)
    # the year is in the label; the full date only for the UI and MCP clients
    released: Annotated[str | None, NOT_FOR_THE_MODEL] = None
    genres: Annotated[list[str], AnswersAbout("genres")] = Field(default_factory=list)
    directors: Annotated[list[str], AnswersAbout("directors")] = Field(default_factory=list)
    cast: Annotated[list[str], AnswersAbout("cast")] = Field(default_factory=list)
    imdb_rating: Annotated[float | None, AnswersAbout("ratings")] = None
    rating_avg: Annotated[float | None, AnswersAbout("ratings")] = None
    rating_count: Annotated[int | None, AnswersAbout("ratings")] = None
    tags: Annotated[list[str], FirstForTheModel(3), AnswersAbout("everything")] = Field(
        default_factory=list
    )
    your_rating: Annotated[float | None, AnswersAbout("ratings")] = None
    imdb_id: str | None = None
    tmdb_id: int | None = None
    # the other films of the title asked, when this is the best known of them: for the UI and
    # MCP clients to show (a small model read "best known" as praise, or as a shared director)
    same_title: Annotated[list[str], NOT_FOR_THE_MODEL] = Field(
        default_factory=list, exclude_if=_empty
    )

    # asked about a topic no field answers ("year"), the model reads the label alone


class PersonCard(_Card):
    """A person's films as actor and as director, best known (most rated) first; the counts are
    of all, the lists capped (the model reads the counts in the result's message)."""

    name: str
    acted_in: Annotated[list[Film], AnswersAbout("cast")]
    acted_in_count: Annotated[int, NOT_FOR_THE_MODEL]
    directed: Annotated[list[Film], AnswersAbout("directors")]
    directed_count: Annotated[int, NOT_FOR_THE_MODEL]

    # an answer names five of a person's films; every row the model reads costs prefill time
    rows_for_the_model = 5

    def asked_about(self, topics: Iterable[str]) -> Self:
        """Asked what they directed, the films they directed; what they acted in, those; asked
        about no role of theirs, every film (the filmography is what the graph holds of them)."""
        asked = frozenset(topics)
        roles = frozenset().union(*(_topics_of(f) for f in type(self).model_fields.values()))
        return super().asked_about(asked) if asked & roles else self

    def answers(self, named: Collection[str], *, narrowed: bool) -> bool:
        """Asked about this person and nothing else ("What has Sidney Lumet directed?", "Tell me
        about Kurosawa"), the filmography is the answer: the model's could only name fewer of
        its films, or misstate one. A question that also names a movie, someone else, a genre
        or years ("Did Tom Hanks act in Big?", "Spielberg's films of the 90s") is the model's."""
        return not narrowed and set(named) <= {self.name}


class StoredRating(Film):
    """A rating the Memory tool stored, and the one it replaced."""

    answers_itself = True  # the answer reports exactly what was stored

    rating: float
    previous: float | None = None
    user_id: int


class YourRating(Film):
    """The rating the session user gave one movie (`None`: not rated); nothing was stored."""

    answers_itself = True

    rating: float | None


class SmalltalkReply(_Card):
    """Not a question about movies: the answer says what the agent can do."""

    answers_itself = True
    examples: list[str]


class Rows(RootModel[list[dict[str, Any]]]):
    """The rows of a tool declared by a `.cypher` file, as its query named their columns."""

    def __iter__(self) -> Iterator[dict[str, Any]]:  # type: ignore[override]
        return iter(self.root)

    def __len__(self) -> int:
        return len(self.root)

    def __getitem__(self, index: int) -> dict[str, Any]:
        return self.root[index]


class Record(RootModel[dict[str, Any]]):
    """A foreign tool's structured output, as it dumped it."""


#: What `ToolResult.data` holds. From a dict or a list (JSON read back, a test's fixture) the
#: first model that takes it exactly wins; a typed card never falls through to `Record`.
Payload = Annotated[
    Recommendations
    | MovieCard
    | PersonCard
    | StoredRating
    | YourRating
    | SmalltalkReply
    | Rows
    | Record,
    Field(union_mode="left_to_right"),
]

#: The payload each built-in tool returns on success (a declared tool returns `Rows`).
BUILT_IN_PAYLOADS: dict[str, Any] = {
    "recommender": Recommendations,
    "film_facts": MovieCard | PersonCard,
    "memory": StoredRating,
    "my_rating": YourRating,
    "smalltalk": SmalltalkReply,
}


def for_the_model(value: Any) -> Any:
    """`value` as plain data under the keys the model reads (one `model_dump`, so the keys and
    `exclude_if` are those every reader gets), less the fields marked `NOT_FOR_THE_MODEL`."""
    dumped = value.model_dump() if isinstance(value, BaseModel) else value
    _drop_unread(value, dumped)
    return dumped


def _drop_unread(value: Any, dumped: Any) -> None:
    """Delete from `dumped` (the dump of `value`) the fields its cards keep from the model."""
    if isinstance(value, list) and isinstance(dumped, list):
        for item, plain in zip(value, dumped, strict=True):
            _drop_unread(item, plain)
    elif isinstance(value, _Card) and isinstance(dumped, dict):
        unread = value.unread_by_the_model()
        for name, field in type(value).model_fields.items():
            key = field.alias or name
            if key not in dumped:
                continue
            if NOT_FOR_THE_MODEL in field.metadata or name in unread:
                del dumped[key]
                continue
            _drop_unread(getattr(value, name), dumped[key])
            for first in (m for m in field.metadata if isinstance(m, FirstForTheModel)):
                dumped[key] = dumped[key][: first.rows]
        for name, shorter in value.read_by_the_model_as().items():
            field = type(value).model_fields[name]
            dumped[field.alias or name] = shorter
