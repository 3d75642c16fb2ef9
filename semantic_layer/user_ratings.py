"""A user's own ratings, for the "my ratings" panel: list them, remove one, pick a user.

The Memory tool writes `(:User {userId})-[:RATED {rating, timestamp}]->(:Movie)` and allocates
ids for new users (`semantic_layer.users`); this module reads and removes what it wrote.
"""

from __future__ import annotations

from collections.abc import Iterable

from pydantic import BaseModel

from semantic_layer import users
from semantic_layer.graph import Graph
from semantic_layer.resolve.reader import Reader
from semantic_layer.session import Session


class UserRating(BaseModel):
    movie_id: int
    title: str
    year: int | None = None
    rating: float
    timestamp: int | None = None

    @property
    def label(self) -> str:
        return f"{self.title} ({self.year})" if self.year else self.title


def list_ratings(graph: Graph, user_id: int, limit: int = 50) -> list[UserRating]:
    """The user's ratings, newest first."""
    return [
        UserRating(
            movie_id=r["movieId"],
            title=r["title"] or f"movie {r['movieId']}",
            year=r["year"],
            rating=r["rating"],
            timestamp=r["timestamp"],
        )
        for r in users.user_ratings(graph, user_id, limit=limit)
    ]


def rated_among(graph: Reader, user_id: int, movie_ids: Iterable[int]) -> set[int]:
    """Which of `movie_ids` the user has rated."""
    params = {"userId": user_id, "movieIds": sorted(set(movie_ids))}
    return {int(r["movieId"]) for r in graph.read("memory/rated_among", params)}


def count_ratings(graph: Graph, user_id: int) -> int:
    rows = graph.read("ui/user_rating_count", {"userId": user_id})
    return int(rows[0]["count"]) if rows else 0


def remove_rating(graph: Graph, session: Session, movie_id: int) -> bool:
    """Delete the session user's rating of one movie; True when there was one.

    A read-only session (a MovieLens demo user) raises `ReadOnlySessionError` and deletes nothing.
    """
    session.require_writable()
    return users.forget_rating(graph, session.user_id, movie_id)


def movielens_user_ids(graph: Graph, limit: int = 100) -> list[int]:
    """Some user ids from the imported MovieLens release (not users made by the app)."""
    rows = graph.read("ui/sample_users", {"maxUserId": users.FIRST_APP_USER_ID - 1, "limit": limit})
    return [int(r["userId"]) for r in rows]
