"""Recommender: collaborative filtering by movie, by genre, both, or from the user's own ratings."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from semantic_layer.resolve import MovieRef, resolve_movie
from semantic_layer.session import Session
from semantic_layer.tools.contract import Tool
from semantic_layer.tools.genre import Genre
from semantic_layer.tools.payloads import Basis, Recommendation, Recommendations
from semantic_layer.tools.result import ToolResult
from semantic_layer.tools.strict import StrictInput
from semantic_layer.tools.trace import TracedGraph

LIMIT = 10
FEW = 3  # fewer genre matches than this among a movie's neighbours is said out loud
SEEDS = 100  # at most this many of the user's liked movies feed personal recommendations
MIN_RATINGS = 10  # by genre: movies with fewer ratings are not ranked ...
PRIOR_MEAN = 3.5  # ... and each mean is damped towards the MovieLens-wide mean ...
PRIOR_WEIGHT = 10  # ... as if it had this many extra ratings at that mean


class RecommenderInput(StrictInput):
    movie: str | None = Field(
        default=None,
        description="The movie the user named to find similar movies to ('like X', 'fans "
        "of X'), or the one a follow-up's 'it' means. Leave it out when they ask from their own "
        "ratings or only for a kind of movie; never make one up.",
    )
    genre: Genre | None = Field(
        default=None,
        description="Only when the user asks for a kind of movie ('a comedy', 'something "
        "scary' = Horror); otherwise leave it out.",
    )


class Recommender(Tool[RecommenderInput]):
    name = "recommender"
    description = (
        "Recommend movies. With `movie`: what the viewers who liked that movie also liked. "
        "With `genre`: the best-rated movies of the genre. With both: movies like that movie, "
        "in that genre. With neither: picks from the user's own ratings ('based on my "
        "ratings', 'for me'). Never a movie the user already rated; each result says why."
    )
    input_model = RecommenderInput

    def execute(self, args: RecommenderInput, graph: TracedGraph, session: Session) -> ToolResult:
        genre, user = (args.genre.value if args.genre else None), session.user_id
        if args.movie is not None:
            return self._by_movie(graph, resolve_movie(graph, args.movie), genre, user)
        if genre is not None:
            return self._by_genre(graph, genre, user)
        return self._for_user(graph, user)

    def _by_movie(
        self, graph: TracedGraph, movie: MovieRef, genre: str | None, user: int
    ) -> ToolResult:
        rows = graph.read(
            "recommend/by_movie",
            {"movieId": movie.movie_id, "userId": user, "genre": genre,
             "limit": LIMIT},
        )  # fmt: skip
        recs = [
            _card(
                r,
                f"viewers who liked {movie.label} tend to like it too "
                f"({r['support']} of them liked both)",
            )
            for r in rows
        ]
        basis = Basis(
            movie=movie.label,
            movie_id=movie.movie_id,
            note=f"took the title to mean {movie.label}" if movie.how == "fuzzy" else None,
            genre=genre or None,
        )
        if not recs:
            where = f" in {genre}" if genre else ""
            message = (
                f"No recommendations{where} from {movie.label}: too few viewers rated it 4+ "
                "together with other movies (or the user has rated them all)."
            )
        elif genre and len(recs) < FEW:
            message = (
                f"Only {len(recs)} of the movies most liked alongside {movie.label} are "
                f"{genre}; try the genre alone for more."
            )
        else:
            message = f"{len(recs)} movies liked by viewers who liked {movie.label}."
        return _result(self.name, message, basis, recs)

    def _by_genre(self, graph: TracedGraph, genre: str, user: int) -> ToolResult:
        rows = graph.read(
            "recommend/by_genre",
            {"genre": genre, "userId": user, "minRatings": MIN_RATINGS,
             "priorMean": PRIOR_MEAN, "priorWeight": PRIOR_WEIGHT, "limit": LIMIT},
        )  # fmt: skip
        recs = [
            _card(r, f"rated {r['ratingAvg']:.1f}/5 on average by {r['ratingCount']} viewers")
            for r in rows
        ]
        message = (
            f"The {len(recs)} best-rated {genre} movies the user has not rated."
            if recs
            else f"No {genre} movie has {MIN_RATINGS}+ ratings that the user has not rated."
        )
        return _result(self.name, message, Basis(genre=genre), recs)

    def _for_user(self, graph: TracedGraph, user: int) -> ToolResult:
        rows = graph.read(
            "recommend/for_user",
            {"userId": user, "genre": None, "seeds": SEEDS, "limit": LIMIT},
        )
        recs = [
            _card(
                r,
                f"the user rated {_titles(r['because'], r['seeds'])} 4+, and viewers who "
                "liked those tend to like it too",
            )
            for r in rows
        ]
        message = (
            f"{len(recs)} movies picked from the user's own 4+ ratings."
            if recs
            else "The user has not rated any movie 4+ yet: ask for a movie they liked or a "
            "genre, or have them rate a movie first."
        )
        return _result(self.name, message, Basis(user="own ratings"), recs)


def _card(row: dict[str, Any], reason: str) -> Recommendation:
    avg = row.get("ratingAvg")
    return Recommendation(
        movie_id=row["movieId"],
        title=row["title"],
        year=row["year"],
        genres=sorted(row.get("genres") or []),
        rating_avg=round(avg, 2) if avg is not None else None,
        rating_count=row.get("ratingCount"),
        why=reason,
    )


def _titles(titles: list[str], total: int) -> str:
    shown = ", ".join(titles)
    return f"{shown} and {total - len(titles)} more" if total > len(titles) else shown


def _result(tool: str, message: str, basis: Basis, recs: list[Recommendation]) -> ToolResult:
    return ToolResult(
        tool=tool,
        kind="recommendations",
        message=message,
        data=Recommendations(basis=basis, recommendations=recs),
    )
