"""Memory: store the session user's rating of exactly one movie."""

from __future__ import annotations

import time
from typing import Any, Literal

from pydantic import BaseModel, Field

from semantic_layer.resolve import resolve_movie
from semantic_layer.tools.base import GraphTool
from semantic_layer.tools.payloads import StoredRating
from semantic_layer.tools.result import ToolResult
from semantic_layer.tools.trace import TracedGraph
from semantic_layer.users import new_user_id


class MemoryInput(BaseModel):
    movie: str = Field(
        description="The one movie the user rated, as they wrote it (with a year only if they "
        "gave one)."
    )
    rating: float = Field(
        ge=1,
        le=5,
        description="The user's rating from 1 (hated it) to 5 (loved it); half stars allowed.",
    )


class Memory(GraphTool):
    name: str = "memory"
    description: str = (
        "Remember the user's rating of one movie (1 to 5 stars), for example when they say "
        "'I loved The Matrix' (5) or 'Heat was ok' (3). Rates exactly one movie: if the title "
        "is ambiguous it returns the candidates and stores nothing."
    )
    args_schema: type[BaseModel] = MemoryInput
    mode: Literal["read", "write"] = "write"

    def execute(self, arguments: Any, graph: TracedGraph) -> ToolResult:
        args: MemoryInput = arguments
        self.session.require_writable()  # a MovieLens demo user: refused with a sentence
        movie = resolve_movie(graph, args.movie)
        rating = round(args.rating * 2) / 2  # MovieLens stores half stars
        if self.session.is_guest:  # bound by the application, never by the model's arguments
            self.session.bind(new_user_id(graph))
        rows = graph.write(
            "memory/rate",
            {"userId": self.session.user_id, "movieId": movie.movie_id, "rating": rating,
             "timestamp": int(time.time())},
        )  # fmt: skip
        row = rows[0]
        previous = row["previous"]
        change = f" (was {previous:g})" if previous is not None and previous != rating else ""
        note = f" (taking {args.movie!r} to mean {movie.label})" if movie.how == "fuzzy" else ""
        return ToolResult(
            tool=self.name,
            kind="rating",
            message=f"Stored {rating:g}/5 for {movie.label}{change}{note}.",
            data=StoredRating(
                movie_id=movie.movie_id,
                title=movie.title,
                year=movie.year,
                rating=rating,
                previous=previous,
                user_id=self.session.user_id,
            ),
        )
