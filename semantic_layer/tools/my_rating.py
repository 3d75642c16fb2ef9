"""My rating: the rating the session user gave one movie, read only.

Reading a rating is its own tool, not the memory tool called without one: a tool that may write
made a small model add a rating to "what did I give Heat?" and store it. Here nothing can be
stored whatever the model writes.
"""

from __future__ import annotations

from pydantic import Field

from semantic_layer.linking.arguments import entity
from semantic_layer.resolve import resolve_movie
from semantic_layer.session import Session
from semantic_layer.tools.contract import Tool
from semantic_layer.tools.payloads import YourRating
from semantic_layer.tools.result import ToolResult
from semantic_layer.tools.strict import StrictInput
from semantic_layer.tools.trace import TracedGraph


class MyRatingInput(StrictInput):
    movie: str = Field(
        description="The one movie the user asks about, as the graph found it (with a year "
        "only if they gave one).",
        json_schema_extra=entity("movie"),
    )


class MyRating(Tool[MyRatingInput]):
    name = "my_rating"
    description = "The rating the user gave one movie before, if any; stores nothing."
    input_model = MyRatingInput

    def execute(self, args: MyRatingInput, graph: TracedGraph, session: Session) -> ToolResult:
        movie = resolve_movie(graph, args.movie)
        rows = (
            []  # a guest has rated nothing yet
            if session.is_guest
            else graph.read(
                "memory/rating_of", {"userId": session.user_id, "movieId": movie.movie_id}
            )
        )
        rating = rows[0]["rating"] if rows else None
        said = (
            f"You rated {movie.label} {rating:g}/5."
            if rating is not None
            else f"You have not rated {movie.label}."
        )
        return ToolResult(
            tool=self.name,
            kind="rating",
            message=said,
            data=YourRating(
                movie_id=movie.movie_id, title=movie.title, year=movie.year, rating=rating
            ),
        )
