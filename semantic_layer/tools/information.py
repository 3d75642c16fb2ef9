"""Information, the tool the model knows as `film_facts`: the facts the graph holds about one
movie or one person.

The name says films: the model reads a tool called "information" as one for any question of
fact ("What are the signs of a cold?" went to it with the film *Signs*), see docs/agent.md."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from semantic_layer.errors import ToolArgumentsError
from semantic_layer.linking.arguments import entity, stated
from semantic_layer.resolve import resolve_movie, resolve_person
from semantic_layer.resolve.kind import Fit, fit, other
from semantic_layer.session import Session
from semantic_layer.tools.contract import Tool, ToolContext
from semantic_layer.tools.genre import Genre
from semantic_layer.tools.payloads import Film, MovieCard, PersonCard
from semantic_layer.tools.result import ToolResult
from semantic_layer.tools.strict import StrictInput
from semantic_layer.tools.trace import TracedGraph

CAST = 8  # main cast shown, by billing order
TAGS = 5
FILMS = 40  # per role, the best known first; the total count is always given
TOPICS = 5  # topics one question asks about at most (more is everything)


#: what a question may ask about a movie; each field of `MovieCard` says which one it answers
Topic = Literal["everything", "directors", "cast", "year", "genres", "ratings"]


def _everything() -> list[Topic]:
    return ["everything"]


class InformationInput(StrictInput):
    entity: str = Field(
        description="The one movie title or person's name the user asks about, as the graph "
        "found it (with a year only if they gave one).",
        json_schema_extra=entity("movie", "person"),
    )
    about: list[Topic] = Field(
        default_factory=_everything,
        min_length=1,
        max_length=TOPICS,
        description="What the user asks, every part of the question: a movie's directors, "
        "cast, year, genres, ratings (is it good?); the films a person directed (directors) "
        "or acted in (cast); 'everything' to tell about it.",
        json_schema_extra=stated(),  # the agent always writes it, the first thing after the name
    )
    entity_type: Literal["movie", "person"] = Field(
        default="movie",
        description="'person' for an actor or director, 'movie' for a film.",
    )


class Information(Tool[InformationInput]):
    name = "film_facts"
    description = (
        "Facts about one movie or one person. A movie: year, other titles, genres, directors, "
        "main cast, IMDb and MovieLens ratings, tags, the user's own rating. A person: every "
        "film they directed or acted in, so use it for 'what has X directed / made / starred "
        "in?' and 'tell me about X'. Not for a film to watch: that is recommender."
    )
    input_model = InformationInput

    def check(self, args: InformationInput, ctx: ToolContext) -> InformationInput:
        """A name the graph knows only as the other kind is looked up as that kind: a director
        asked about as a movie, a title asked about as a person. A genre is not an entity
        ("in the mood for a western"): sent back, the recommender takes genres."""
        if _genre(args.entity) is not None:
            raise ToolArgumentsError(
                f"entity: {args.entity!r} is a genre, not a movie or a person; "
                "the recommender takes a genre"
            )
        if ctx.graph is None:
            return args
        args = super().check(args, ctx)  # "电影 Hero (2002)": the name inside
        graph = TracedGraph(ctx.graph)
        kind = args.entity_type
        here, there = fit(graph, args.entity, kind), fit(graph, args.entity, other(kind))
        if there > here and (there == Fit.BY_NAME or here == Fit.NONE):
            return args.model_copy(update={"entity_type": other(kind)})
        return args

    def execute(self, args: InformationInput, graph: TracedGraph, session: Session) -> ToolResult:
        if args.entity_type == "person":
            result = self._person(graph, args.entity)
        else:
            result = self._movie(graph, args.entity, session.user_id)
        if isinstance(result.data, MovieCard | PersonCard) and "everything" not in args.about:
            result.data = result.data.asked_about(args.about)  # what the model reads of it
        return result

    def _movie(self, graph: TracedGraph, text: str, user_id: int) -> ToolResult:
        movie = resolve_movie(graph, text)
        params = {"movieId": movie.movie_id, "userId": user_id}
        row = graph.read("info/movie", params)[0]
        tags = graph.read("info/movie_tags", {"movieId": movie.movie_id, "limit": TAGS})
        cast = sorted(row["cast"], key=lambda c: (c["order"] is None, c["order"], c["name"]))
        avg = row["ratingAvg"]
        data = MovieCard(
            movie_id=row["movieId"],
            title=row["title"],
            year=row["year"],
            also_known_as=sorted(row["aliases"]),
            released=row["released"],
            genres=sorted(row["genres"]),
            directors=sorted(row["directors"]),
            cast=[c["name"] for c in cast[:CAST]],
            imdb_rating=row["imdbRating"],
            rating_avg=round(avg, 2) if avg is not None else None,
            rating_count=row["ratingCount"],
            tags=[t["tag"] for t in tags],
            your_rating=row["yourRating"],
            imdb_id=row["imdbId"],
            tmdb_id=row["tmdbId"],
            same_title=list(movie.others),
        )
        reading = movie.reading(text)
        note = f" ({reading})" if reading else ""
        if not data.directors and not data.cast:
            note += "; the graph has no cast or director for it"
        return ToolResult(tool=self.name, kind="movie", message=f"{movie.label}{note}.", data=data)

    def _person(self, graph: TracedGraph, text: str) -> ToolResult:
        person = resolve_person(graph, text)
        row = graph.read("info/person", {"name": person.name})[0]
        acted = sorted(row["acted"], key=_best_known)
        directed = sorted(row["directed"], key=_best_known)
        data = PersonCard(
            name=row["name"],
            acted_in=[_film(f) for f in acted[:FILMS]],
            acted_in_count=len(acted),
            directed=[_film(f) for f in directed[:FILMS]],
            directed_count=len(directed),
        )
        note = f" (taking {text!r} to mean {person.name})" if person.how == "fuzzy" else ""
        message = (
            f"{person.name}{note}: acted in {len(acted)} and directed {len(directed)} "
            "movies in the graph (best known first)."
        )
        return ToolResult(tool=self.name, kind="person", message=message, data=data)


def _best_known(film: dict[str, Any]) -> tuple[int, int, str]:
    """Most rated first (what "name a few" should name), then the older, then by title."""
    return (-(film["ratingCount"] or 0), film["year"] or 0, film["title"])


def _genre(text: str) -> Genre | None:
    """The genre `text` names exactly ("western", "Sci-Fi", "comedies"), if any."""
    if any(c.isdigit() for c in text):  # "Romance (1999)" is the movie
        return None
    try:
        return Genre(text.strip())
    except ValueError:
        return None


def _film(film: dict[str, Any]) -> Film:
    return Film(movie_id=film["movieId"], title=film["title"], year=film["year"])
