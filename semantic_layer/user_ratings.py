"""A user's own ratings, for the "my ratings" panel: list them, remove one, pick or make a user.

The Memory tool writes `(:User {userId})-[:RATED {rating, timestamp}]->(:Movie)`; these
functions read and delete what it wrote, through the named queries in `cypher/ui/`.
"""

from __future__ import annotations

from pydantic import BaseModel

from semantic_layer.graph import Graph

# Users made by the app get ids from here up, so they never collide with MovieLens users
# (ml-latest-small has 610, ml-25m 162,541) even if a larger release is imported later.
NEW_USER_ID_FLOOR = 1_000_000


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
    rows = graph.read("ui/user_ratings", {"userId": user_id, "limit": limit})
    return [
        UserRating(
            movie_id=r["movieId"],
            title=r["title"] or f"movie {r['movieId']}",
            year=r["year"],
            rating=r["rating"],
            timestamp=r["timestamp"],
        )
        for r in rows
    ]


def count_ratings(graph: Graph, user_id: int) -> int:
    rows = graph.read("ui/user_rating_count", {"userId": user_id})
    return int(rows[0]["count"]) if rows else 0


def remove_rating(graph: Graph, user_id: int, movie_id: int) -> bool:
    """Delete the user's rating of one movie; True when there was one."""
    rows = graph.write("ui/remove_rating", {"userId": user_id, "movieId": movie_id})
    return bool(rows and rows[0]["removed"])


def movielens_user_ids(graph: Graph, limit: int = 100) -> list[int]:
    """Some user ids from the imported MovieLens release (not users made by the app)."""
    rows = graph.read("ui/sample_users", {"maxUserId": NEW_USER_ID_FLOOR - 1, "limit": limit})
    return [int(r["userId"]) for r in rows]


def new_user_id(graph: Graph) -> int:
    """Create a fresh user and return its id (at least `NEW_USER_ID_FLOOR`)."""
    rows = graph.write("ui/new_user", {"floor": NEW_USER_ID_FLOOR})
    return int(rows[0]["userId"])
