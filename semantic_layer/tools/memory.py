"""Memory: store the session user's rating of exactly one movie.

Every call stores a rating, so the rating is required; saying what the user rated a movie is the
read-only `my_rating` tool.
"""

from __future__ import annotations

import time

from pydantic import Field

from semantic_layer.linking.arguments import STATED_NUMBER, entity
from semantic_layer.resolve import resolve_movie
from semantic_layer.session import Session
from semantic_layer.tools.contract import Tool, writing_user
from semantic_layer.tools.payloads import StoredRating
from semantic_layer.tools.result import ToolResult
from semantic_layer.tools.strict import Stars, StrictInput
from semantic_layer.tools.trace import TracedGraph


class MemoryInput(StrictInput):
    movie: str = Field(
        description="The one movie the user rated, as the graph found it (with a year only if "
        "they gave one).",
        json_schema_extra=entity("movie"),
    )
    rating: Stars = Field(
        description="The rating the user gives it, from 0.5 (hated it) to 5 (loved it); half "
        "stars allowed.",
        json_schema_extra=entity(STATED_NUMBER),  # a number they wrote, when they wrote one
    )


class Memory(Tool[MemoryInput]):
    name = "memory"
    description = (
        "Store the rating the user gives one movie (0.5 to 5 stars; 'loved it' is 5, 'it was "
        "ok' is 3). Rates exactly one movie: if the title is ambiguous it returns the "
        "candidates and stores nothing."
    )
    input_model = MemoryInput
    mode = "write"

    def execute(self, args: MemoryInput, graph: TracedGraph, session: Session) -> ToolResult:
        movie = resolve_movie(graph, args.movie, best_known=False)
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
        reading = movie.reading(args.movie)
        note = f" ({reading})" if reading else ""
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
