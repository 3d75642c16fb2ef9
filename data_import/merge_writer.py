"""The default write path: batched, parameterized `UNWIND $rows ... MERGE` queries.

Works on both backends and is idempotent on an existing graph: a second run changes no count,
and what else the graph holds (the users the app created) is kept.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from data_import.batches import batched
from data_import.neighbours import Derived
from data_import.rating_arrays import RatingArrays
from data_import.report import PhaseStats
from data_import.tag_summary import count_tags, tag_rows
from semantic_layer.graph import Graph


class MergeWriter:
    schema_first = True

    def __init__(self, graph: Graph, batch_size: int, rating_batch_size: int) -> None:
        self.graph = graph
        self.batch_size = batch_size
        self.rating_batch_size = rating_batch_size

    def movies(self, rows: list[dict[str, Any]], genres: list[str], stats: PhaseStats) -> None:
        stats.wrote("Genre", self._write("import/genres", genres))
        stats.wrote("Movie", self._write("import/movies", rows))
        self._write("import/movie_genres", rows)
        stats.wrote("IN_GENRE", sum(len(set(r["genres"])) for r in rows))
        self._write("import/aliases_prune", [
            {"movieId": r["movieId"], "keep": [a["titleNorm"] for a in r["aliases"]]} for r in rows
        ])  # fmt: skip
        aliases = [{"movieId": r["movieId"], **a} for r in rows for a in r["aliases"]]
        stats.wrote("Alias", self._write("import/aliases", aliases))
        stats.wrote("ALIAS_OF", len(aliases))

    def enrichment(
        self,
        details: list[dict[str, Any]],
        people: list[dict[str, Any]],
        acted: list[dict[str, Any]],
        directed: list[dict[str, Any]],
        stats: PhaseStats,
    ) -> None:
        self._write("import/movie_details", details)
        stats.wrote("Person", self._write("import/people", people))
        stats.wrote("ACTED_IN", self._write("import/acted_in", acted))
        stats.wrote("DIRECTED", self._write("import/directed", directed))

    def ratings(self, ratings: RatingArrays, stats: PhaseStats) -> None:
        stats.wrote("User", self._write("import/users", np.unique(ratings.user).tolist()))
        columns = (ratings.user, ratings.movie, ratings.rating, ratings.timestamp)
        for start in range(0, len(ratings), self.rating_batch_size):
            part = [c[start : start + self.rating_batch_size].tolist() for c in columns]
            rows = [
                {"userId": u, "movieId": m, "rating": r, "timestamp": t}
                for u, m, r, t in zip(*part, strict=True)
            ]
            self.graph.write("import/ratings", {"rows": rows})
            stats.wrote("RATED", len(rows))

    def tags(self, rows: list[dict[str, Any]], new_users: list[int], stats: PhaseStats) -> None:
        stats.wrote("User", self._write("import/users", new_users))
        stats.wrote("TAGGED", self._write("import/tags", rows))

    def derived(self, derived: Derived, stats: PhaseStats) -> None:
        """Statistics per movie; the Tag summary deleted and rewritten from every TAGGED edge
        the graph holds (the app users' too); then SIMILAR deleted and rewritten between node
        ids (an id lookup is several times faster than an index lookup for 300k edges)."""
        self._write("import/movie_stats", movie_stats_rows(derived))
        self.graph.write("import/tags_delete")
        tags = tag_rows(count_tags(self.graph.read("import/tagged_edges")))
        stats.wrote("Tag", len({t["name"] for t in tags}))
        stats.wrote("TAGS", self._write("import/tag_movies", tags))
        self.graph.write("import/similar_delete")
        node = {r["movieId"]: r["node"] for r in self.graph.read("import/movie_nodes")}
        similar = derived.similar
        columns = (similar.source, similar.target, similar.weight, similar.score,
                   similar.support, similar.rank)  # fmt: skip
        for start in range(0, len(similar), self.rating_batch_size):
            part = [c[start : start + self.rating_batch_size].tolist() for c in columns]
            rows = [[node[s], node[t], *rest] for s, t, *rest in zip(*part, strict=True)]
            self.graph.write("import/similar", {"rows": rows})
            stats.wrote("SIMILAR", len(rows))

    def build(self, stats: PhaseStats, app_tags: list[dict[str, Any]] | None = None) -> None:
        """Nothing left to do: every phase wrote as it went (the Tag summary already counts
        every TAGGED edge in the graph, so `app_tags` adds nothing)."""

    def _write(self, query: str, rows: list[Any]) -> int:
        for batch in batched(rows, self.batch_size):
            self.graph.write(query, {"rows": batch})
        return len(rows)


def movie_stats_rows(derived: Derived) -> list[dict[str, Any]]:
    """One row per movie of the release; ratingAvg is None (no property) without ratings."""
    stats = derived.stats
    avg = np.where(stats.rating_count > 0, stats.rating_avg, np.nan).tolist()
    return [
        {"movieId": m, "ratingCount": n, "ratingAvg": None if a != a else a, "likeCount": k}
        for m, n, a, k in zip(
            stats.movie_ids.tolist(), stats.rating_count.tolist(), avg,
            stats.like_count.tolist(), strict=True,
        )
    ]  # fmt: skip
