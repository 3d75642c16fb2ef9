"""The large-release path on FalkorDB: gather the whole release, then build the graph anew.

The reading phases only collect rows; `build` creates a new graph under a private name with
`Graph.bulk_build` (`GRAPH.BULK`), then credits each reading phase with the nodes and edges it
wrote for it. The importer then creates the indexes and constraints, writes back the users the
app created (`app_users`) and swaps the new graph in. Re-running rebuilds the same graph, so
it is idempotent too; anything else the graph held is gone: that is why it is chosen for an
empty graph, for large releases or on request.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from data_import.merge_writer import movie_stats_rows
from data_import.neighbours import Derived
from data_import.rating_arrays import RatingArrays
from data_import.report import PhaseStats
from data_import.tag_summary import TagCounts, count_tags, tag_rows
from semantic_layer.errors import BulkLoadError

STAGING_SUFFIX = "__import"
MOVIE_PROPERTIES = ("movieId", "title", "year", "originalTitle", "titleNorm", "aliasText", "imdbId",
                    "tmdbId", "imdbRating", "released", "ratingCount", "ratingAvg",
                    "likeCount")  # fmt: skip


@dataclass
class _Release:
    movies: list[dict[str, Any]] = field(default_factory=list)
    genres: list[str] = field(default_factory=list)
    details: list[dict[str, Any]] = field(default_factory=list)
    people: list[dict[str, Any]] = field(default_factory=list)
    acted: list[dict[str, Any]] = field(default_factory=list)
    directed: list[dict[str, Any]] = field(default_factory=list)
    ratings: RatingArrays | None = None
    tags: list[dict[str, Any]] = field(default_factory=list)
    tag_users: list[int] = field(default_factory=list)
    tag_counts: TagCounts = field(default_factory=Counter)
    derived: Derived | None = None


class BulkWriter:
    schema_first = False

    def __init__(self, graph: Any, on_sent: Any = None) -> None:
        self.graph = graph
        self.on_sent = on_sent
        self.release = _Release()
        self.phases: dict[str, PhaseStats] = {}  # the reading phases, credited by `build`

    def movies(self, rows: list[dict[str, Any]], genres: list[str], stats: PhaseStats) -> None:
        self.release.movies, self.release.genres = rows, genres
        self.phases["movies"] = stats

    def enrichment(
        self,
        details: list[dict[str, Any]],
        people: list[dict[str, Any]],
        acted: list[dict[str, Any]],
        directed: list[dict[str, Any]],
        stats: PhaseStats,
    ) -> None:
        r = self.release
        r.details, r.people, r.acted, r.directed = details, people, acted, directed
        self.phases["enrichment"] = stats

    def ratings(self, ratings: RatingArrays, stats: PhaseStats) -> None:
        self.release.ratings = ratings
        self.phases["ratings"] = stats

    def tags(self, rows: list[dict[str, Any]], new_users: list[int], stats: PhaseStats) -> None:
        self.release.tags, self.release.tag_users = rows, new_users
        self.release.tag_counts = count_tags(_last_tags(rows))
        self.phases["tags"] = stats

    def derived(self, derived: Derived, stats: PhaseStats) -> None:
        self.release.derived = derived
        self.phases["derived"] = stats

    @property
    def total(self) -> int:
        """Entities `build` sends, for its progress bar."""
        r = self.release
        ratings = len(r.ratings) if r.ratings is not None else 0
        similar = len(r.derived.similar) if r.derived is not None else 0
        per_movie = sum(len(m["genres"]) + 2 * len(m["aliases"]) for m in r.movies)
        return (len(r.genres) + len(r.movies) + len(r.people) + len(r.acted) + len(r.directed)
                + 2 * ratings + len(r.tags) + similar + per_movie
                + len({name for name, _ in r.tag_counts}) + len(r.tag_counts))  # fmt: skip

    def build(self, stats: PhaseStats, app_tags: list[dict[str, Any]] | None = None) -> Any:
        """Build the new graph under the private name `<graph>__import` and return it (the
        importer swaps it in); the Tag summary also counts `app_tags`, the TAGGED edges of the
        app users that are written back after the build (rows with `tag` and `movieId`)."""
        r = self.release
        assert r.ratings is not None and r.derived is not None
        staging, loader = self.graph.bulk_build(STAGING_SUFFIX, on_sent=self.on_sent)

        genre_ids = dict(zip(r.genres, loader.nodes("Genre", ["name"], ([g] for g in r.genres)),
                             strict=True))  # fmt: skip
        movies = self._movie_rows()
        movie_ids = np.array([m["movieId"] for m in movies], dtype=np.int64)
        movie_nodes = np.asarray(loader.nodes("Movie", MOVIE_PROPERTIES,
                                              ([m.get(p) for p in MOVIE_PROPERTIES] for m in movies)))  # fmt: skip
        order = np.argsort(movie_ids)
        movie_ids, movie_nodes = movie_ids[order], movie_nodes[order]
        node_of_movie = dict(zip(movie_ids.tolist(), movie_nodes.tolist(), strict=True))
        person_ids = dict(zip((p["name"] for p in r.people),
                              loader.nodes("Person", ["name", "nameNorm"],
                                           ([p["name"], p["nameNorm"]] for p in r.people)),
                              strict=True))  # fmt: skip
        users = np.unique(np.concatenate((r.ratings.user, np.array(r.tag_users, np.int64))))
        user_nodes = np.asarray(loader.node_columns("User", {"userId": users}))
        tags = tag_rows(r.tag_counts + count_tags(app_tags or []))
        names = sorted({t["name"] for t in tags})
        tag_ids = dict(zip(names, loader.nodes("Tag", ["name"], ([n] for n in names)),
                           strict=True))  # fmt: skip
        aliases = [(node_of_movie[m["movieId"]], a) for m in movies for a in m["aliases"]]
        alias_nodes = loader.nodes("Alias", ["title", "titleNorm"],
                                   ([a["title"], a["titleNorm"]] for _, a in aliases))  # fmt: skip

        loader.edges("IN_GENRE", [], (
            (node_of_movie[m["movieId"]], genre_ids[g], ()) for m in movies for g in m["genres"]
        ))  # fmt: skip
        loader.edges("ALIAS_OF", [], (
            (alias, movie, ()) for alias, (movie, _) in zip(alias_nodes, aliases, strict=True)
        ))  # fmt: skip
        loader.edges("ACTED_IN", ["order"], (
            (person_ids[a["name"]], node_of_movie[a["movieId"]], (a["order"],)) for a in r.acted
        ))  # fmt: skip
        loader.edges("DIRECTED", [], (
            (person_ids[d["name"]], node_of_movie[d["movieId"]], ()) for d in r.directed
        ))  # fmt: skip
        ratings = r.ratings
        loader.edge_columns(
            "RATED",
            user_nodes[np.searchsorted(users, ratings.user)],
            movie_nodes[np.searchsorted(movie_ids, ratings.movie)],
            {"rating": ratings.rating, "timestamp": ratings.timestamp},
        )
        user_of = dict(zip(users.tolist(), user_nodes.tolist(), strict=True))
        loader.edges("TAGGED", ["tag", "timestamp"], (
            (user_of[t["userId"]], node_of_movie[t["movieId"]], (t["tag"], t["timestamp"]))
            for t in _last_tags(r.tags)
        ))  # fmt: skip
        similar = r.derived.similar
        loader.edge_columns(
            "SIMILAR",
            movie_nodes[np.searchsorted(movie_ids, similar.source)],
            movie_nodes[np.searchsorted(movie_ids, similar.target)],
            {
                "weight": similar.weight,
                "score": similar.score,
                "support": similar.support,
                "rank": similar.rank,
            },
        )
        loader.edges("TAGS", ["count"], (
            (tag_ids[t["name"]], node_of_movie[t["movieId"]], (t["count"],)) for t in tags
        ))  # fmt: skip
        stats.wrote("nodes", loader.nodes_created)
        stats.wrote("edges", loader.edges_created)
        self._credit_phases(loader.created)
        _check_node_ids(
            staging, {"movieId": (movie_nodes, movie_ids), "userId": (user_nodes, users)}
        )
        return staging

    def swap_in(self, staging: Any) -> None:
        """Replace the graph with the one `build` made, in one step."""
        self.graph.replace_with(staging)

    def _credit_phases(self, created: Counter[str]) -> None:
        """Each reading phase's `written`: what the build created from its rows."""
        tag_users = min(len(self.release.tag_users), created["User"])
        shares = {
            "movies": {"Movie": created["Movie"], "Genre": created["Genre"],
                       "IN_GENRE": created["IN_GENRE"], "Alias": created["Alias"],
                       "ALIAS_OF": created["ALIAS_OF"]},
            "enrichment": {"Person": created["Person"], "ACTED_IN": created["ACTED_IN"],
                           "DIRECTED": created["DIRECTED"]},
            "ratings": {"User": created["User"] - tag_users, "RATED": created["RATED"]},
            "tags": {"User": tag_users, "TAGGED": created["TAGGED"]},
            "derived": {"SIMILAR": created["SIMILAR"], "Tag": created["Tag"],
                        "TAGS": created["TAGS"]},
        }  # fmt: skip
        for phase, share in shares.items():
            if phase in self.phases:
                for what, count in share.items():
                    self.phases[phase].wrote(what, count)

    def _movie_rows(self) -> list[dict[str, Any]]:
        r = self.release
        assert r.derived is not None
        details = {d["movieId"]: d for d in r.details}
        stats = {s["movieId"]: s for s in movie_stats_rows(r.derived)}
        return [
            {**m, **details.get(m["movieId"], {}), **stats[m["movieId"]],
             "genres": list(dict.fromkeys(m["genres"]))}
            for m in r.movies
        ]  # fmt: skip


def _check_node_ids(graph: Any, assumed: dict[str, tuple[np.ndarray, np.ndarray]]) -> None:
    """The edges were sent between node ids the loader assumed; check the first and last node
    of each kind, so a graph whose ids shifted (another writer) is never swapped in."""
    expected = {int(nodes[i]): (key, int(values[i]))
                for key, (nodes, values) in assumed.items() if len(nodes)
                for i in (0, -1)}  # fmt: skip
    found = {r["node"]: r for r in graph.read("import/node_ids", {"ids": sorted(expected)})}
    for node, (key, value) in expected.items():
        if found.get(node, {}).get(key) != value:
            raise BulkLoadError(
                f"The bulk build's node {node} is not the {key} {value} it was sent as: "
                "something else wrote to the new graph. Nothing was swapped in; import again."
            )


def _last_tags(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One TAGGED edge per (user, movie, tag), with the last timestamp, as MERGE would keep."""
    last: dict[tuple[int, int, str], dict[str, Any]] = {}
    for row in rows:
        last[(row["userId"], row["movieId"], row["tag"])] = row
    return list(last.values())
