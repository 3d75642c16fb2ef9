"""Memory: store the session user's rating of exactly one movie."""

from __future__ import annotations

import re
import time

from pydantic import Field

from semantic_layer.resolve import resolve_movie
from semantic_layer.resolve.kind import Fit, fit
from semantic_layer.session import Session
from semantic_layer.tools.contract import Tool, ToolContext, writing_user
from semantic_layer.tools.payloads import StoredRating
from semantic_layer.tools.result import ToolResult
from semantic_layer.tools.strict import Stars, StrictInput
from semantic_layer.tools.trace import TracedGraph


class MemoryInput(StrictInput):
    movie: str = Field(
        description="The one movie the user rated, as they wrote it (with a year only if they "
        "gave one)."
    )
    rating: Stars = Field(
        description="The user's rating from 0.5 (hated it) to 5 (loved it); half stars allowed.",
    )


class Memory(Tool[MemoryInput]):
    name = "memory"
    description = (
        "Remember the user's rating of one movie (1 to 5 stars), for example when they say "
        "'I loved The Matrix' (5) or 'Heat was ok' (3). Rates exactly one movie: if the title "
        "is ambiguous it returns the candidates and stores nothing."
    )
    input_model = MemoryInput
    mode = "write"

    def check(self, args: MemoryInput, ctx: ToolContext) -> MemoryInput:
        """The rating glued to the title ("I rate RoboCop 4 stars" as movie "RoboCop 4",
        rating 4; "Jurassic Park 3.5 stars") is taken off when only the title without it names
        a movie."""
        glued = _GLUED_RATING.match(args.movie)
        head = glued.group("title") if glued else ""
        if ctx.graph is None or not glued or not _same_number(glued.group("number"), args.rating):
            return args
        graph = TracedGraph(ctx.graph)
        if fit(graph, args.movie, "movie") < Fit.BY_NAME <= fit(graph, head, "movie"):
            return args.model_copy(update={"movie": head})
        return args

    def execute(self, args: MemoryInput, graph: TracedGraph, session: Session) -> ToolResult:
        session.require_writable()  # a MovieLens demo user: refused with a sentence
        movie = resolve_movie(graph, args.movie)
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


# a title, then a number and maybe its unit: "RoboCop 4", "Jurassic Park 3.5 stars", "Up 4/5"
_GLUED_RATING = re.compile(
    r"^(?P<title>.+?)\s+(?P<number>\d(?:[.,]\d)?)\s*(?:stars?|/\s*5|out of 5|sterne?|"
    r"étoiles?|estrellas?|stelle|星)?\s*$",
    re.IGNORECASE,
)


def _same_number(text: str, rating: float) -> bool:
    try:
        return float(text.replace(",", ".")) == rating
    except ValueError:
        return False
