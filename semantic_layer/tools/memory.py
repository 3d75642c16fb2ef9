"""Memory: store the session user's rating of exactly one movie, or say the one they gave.

A rating is stored only when the call carries one: with no rating the tool reads what the user
rated the movie and writes nothing.
"""

from __future__ import annotations

import time

from pydantic import Field
from pydantic.json_schema import SkipJsonSchema

from semantic_layer.linking.arguments import STATED_NUMBER, entity
from semantic_layer.resolve import MovieRef, resolve_movie
from semantic_layer.session import Session
from semantic_layer.tools.contract import Tool, writing_user
from semantic_layer.tools.payloads import StoredRating, YourRating
from semantic_layer.tools.result import ToolResult
from semantic_layer.tools.strict import Stars, StrictInput
from semantic_layer.tools.trace import TracedGraph


class MemoryInput(StrictInput):
    movie: str = Field(
        description="The one movie the user rated, as the graph found it (with a year only if "
        "they gave one).",
        json_schema_extra=entity("movie"),
    )
    rating: Stars | SkipJsonSchema[None] = Field(
        default=None,
        description="The rating the user gives it, from 0.5 (hated it) to 5 (loved it); half "
        "stars allowed. Leave it out when they ask what they rated it.",
        json_schema_extra=entity(STATED_NUMBER),  # a number they wrote, when they wrote one
    )


class Memory(Tool[MemoryInput]):
    name = "memory"
    description = (
        "Store the rating the user gives one movie (0.5 to 5 stars; 'loved it' is 5, 'it was "
        "ok' is 3), or, called without a rating, say the rating they gave it before and store "
        "nothing. Rates exactly one movie: if the title is ambiguous it returns the candidates "
        "and stores nothing."
    )
    input_model = MemoryInput
    mode = "write"

    def execute(self, args: MemoryInput, graph: TracedGraph, session: Session) -> ToolResult:
        movie = resolve_movie(graph, args.movie)
        if args.rating is None:
            return self._recall(movie, graph, session)
        session.require_writable()  # a MovieLens demo user: refused with a sentence
        rating = round(args.rating * 2) / 2  # MovieLens stores half stars
        # from the session, never from the model's arguments; a guest gets an id now
        user_id, new_user = writing_user(graph, session)
        rows = graph.write(
            "memory/rate",
            {"userId": user_id, "movieId": movie.movie_id, "rating": rating,
             "timestamp": int(time.time())},
        )  # fmt: skip
        row = rows[0]
        previous = row["previous"]
        change = f" (was {previous:g})" if previous is not None and previous != rating else ""
        note = f" (taking {args.movie!r} to mean {movie.label})" if movie.how == "fuzzy" else ""
        return ToolResult(
            tool=self.name,
            new_user_id=new_user,
            kind="rating",
            message=f"Stored {rating:g}/5 for {movie.label}{change}{note}.",
            data=StoredRating(
                movie_id=movie.movie_id,
                title=movie.title,
                year=movie.year,
                rating=rating,
                previous=previous,
                user_id=user_id,
            ),
        )

    def _recall(self, movie: MovieRef, graph: TracedGraph, session: Session) -> ToolResult:
        """What the session user rated `movie`, read only; a guest has rated nothing yet."""
        rows = (
            []
            if session.is_guest
            else graph.read(
                "memory/rating_of", {"userId": session.user_id, "movieId": movie.movie_id}
            )
        )
        rating = rows[0]["rating"] if rows else None
        said = (
            f"You rated {movie.label} {rating:g}/5."
            if rating is not None
            else (f"You have not rated {movie.label}.")
        )
        return ToolResult(
            tool=self.name,
            kind="rating",
            message=said,
            data=YourRating(
                movie_id=movie.movie_id, title=movie.title, year=movie.year, rating=rating
            ),
        )
