"""Import a MovieLens release (plus an optional enriched movie list) into the graph.

Phases read and validate each file (bad rows are reported by file and line), then hand the rows
to a writer: `MergeWriter` (batched, parameterized, idempotent `MERGE` writes, both backends) or,
where the graph can be built in bulk (`Graph.bulk_loads`, the embedded graph) and it is empty or
the release large, `BulkWriter` (rebuilds the graph through `Graph.bulk_build`). After the ratings, the `derived` phase writes rating statistics and SIMILAR edges
(`neighbours`) and the Tag summary (`tag_summary`). The bulk path builds the new graph under a
private name, holding the data directory alone, writes back the users the app created
(`app_users`) and swaps it in with one RENAME. Last, the import waits until the indexes
the database builds in the background are usable. One progress bar per phase, and a report of rows
read, written and skipped.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

from data_import import app_users, neighbours, readers
from data_import.bulk_writer import BulkWriter
from data_import.defaults import BULK_THRESHOLD as BULK_THRESHOLD  # its home before `defaults`
from data_import.errors import ImportDataError, SourceError
from data_import.merge_writer import MergeWriter
from data_import.people import merge_spellings
from data_import.problems import Problems
from data_import.rating_arrays import RatingArrays, keep_last_rating, read_ratings
from data_import.report import ImportReport, PhaseStats
from data_import.titles import alias_rows, alias_text, split_title
from semantic_layer.graph import Graph
from semantic_layer.normalize import normalize_name, normalize_title

INDEX_TIMEOUT_S = 300.0


@dataclass
class ImportOptions:
    batch_size: int = 5_000
    rating_batch_size: int = 20_000
    show_progress: bool = True
    bulk: bool | None = None  # None: see BULK_THRESHOLD
    max_likes_per_user: int = neighbours.MAX_LIKES_PER_USER
    index_timeout_s: float = INDEX_TIMEOUT_S


class MovieLensImporter:
    def __init__(self, graph: Graph, options: ImportOptions | None = None) -> None:
        self.graph = graph
        self.options = options or ImportOptions()
        self.movie_ids: set[int] = set()
        self.report = ImportReport(source="", backend=graph.backend)
        self.writer: MergeWriter | BulkWriter = MergeWriter(
            graph, self.options.batch_size, self.options.rating_batch_size
        )

    @property
    def problems(self) -> Problems:
        return self.report.problems

    def run(self, release: Path, enrich: Path | None = None) -> ImportReport:
        self.report.source = str(release)
        for required in (readers.MOVIES, readers.RATINGS):
            if not (release / required.name).is_file():
                raise SourceError(
                    f"Missing {release / required.name}: a MovieLens release has "
                    f"{required.name} with columns {','.join(required.header)}."
                )
        bulk = self._use_bulk(release / readers.RATINGS.name)
        if bulk:
            with self.graph.exclusive("import"):  # fail fast: the build checks again
                pass
            self.writer = BulkWriter(self.graph, on_sent=self._advance)
            self.report.notes.append(
                "bulk path: the graph was rebuilt from scratch with GRAPH.BULK; the reading "
                "phases gather rows and `build` writes them all (each phase's `written` is what "
                "the build wrote for it, `build` shows the total)"
            )
        leftover, backups = app_users.read_backups(self._data_dir())
        with self._progress() as progress:
            self._progress_bar = progress
            if self.writer.schema_first:
                with self._phase("schema"):
                    self.graph.ensure_schema()
            self._movies(release)
            if enrich is not None:
                self._enrichment(enrich)
            ratings = self._ratings(release)
            self._tags(release, ratings)
            self._derived(ratings)
            if isinstance(self.writer, BulkWriter):
                with self.graph.exclusive("import"):
                    self._build_and_swap(self.writer, leftover)
            else:
                self._wait_for_indexes(self.graph)
                self._restore(app_users.missing_from(self.graph, leftover), self.graph)
        app_users.mark_recovered(backups)
        return self.report

    def _build_and_swap(self, writer: BulkWriter, leftover: app_users.KeptUsers) -> None:
        """Build the new graph under a private name (nobody else writes there, so GRAPH.BULK's
        node ids are ours), add the schema, the indexes and the app users, then swap it in with
        one RENAME: an import that dies before leaves the graph as it was, app users included."""
        with self._phase("build", writer.total) as stats:
            kept = app_users.keep(self.graph).plus(leftover)
            saved = app_users.backup(kept, self._data_dir()) if kept.users else None
            try:
                app_tags = [t for t in kept.tags if t["movieId"] in self.movie_ids]
                staging = writer.build(stats, app_tags)
            except Exception as e:
                if saved is None:
                    raise
                raise ImportDataError(
                    f"The bulk build failed ({e}); the graph was left as it was, and its "
                    f"{len(kept.users):,} app users and their ratings are also saved in {saved}."
                ) from e
        with self._phase("schema"):
            staging.ensure_schema()
        self._wait_for_indexes(staging)
        self._restore(kept, staging)
        writer.swap_in(staging)
        if saved is not None:
            saved.unlink(missing_ok=True)

    def _use_bulk(self, ratings: Path) -> bool:
        bulk = self.options.bulk
        if bulk and not self.graph.bulk_loads:
            raise ImportDataError(
                "The bulk path builds an embedded FalkorDB graph; on Neo4j the import uses "
                "batched MERGE (for very large releases, neo4j-admin import is the fast path)."
            )
        if bulk is None:
            return self.graph.bulk_loads and (
                readers.count_lines(ratings) > BULK_THRESHOLD or self._graph_is_empty()
            )
        return bulk

    def _data_dir(self) -> Path:
        """Where files about this import go: the graph's data directory, else here."""
        return Path(self.graph.settings.data_dir or Path.cwd())

    def _graph_is_empty(self) -> bool:
        return not self.graph.read("import/any_node")

    def _wait_for_indexes(self, graph: Graph) -> None:
        """Return only once lookups and full-text search work, or say in the report why not."""
        with self._phase("indexes") as stats:

            def progress(ready: int, total: int) -> None:
                stats.read = total
                self._progress_bar.update(self._task, completed=ready, total=total)

            pending = graph.wait_for_indexes(self.options.index_timeout_s, progress)
        self.report.indexes_pending = pending
        if pending:
            self.report.notes.append(
                f"{len(pending)} indexes were still being built after "
                f"{self.options.index_timeout_s:.0f} s ({'; '.join(pending[:3])}): title and "
                "name search may find nothing until they are done (the database finishes them "
                "on its own; `movieagent stats` works meanwhile)"
            )

    def _restore(self, kept: app_users.KeptUsers, graph: Graph) -> None:
        if not kept.users:
            return
        with self._phase("app users", len(kept.ratings) + len(kept.tags)) as stats:
            restored = app_users.restore(
                graph, kept, self.movie_ids, self.options.batch_size, self._data_dir()
            )
            stats.read = len(kept.users) + len(kept.ratings) + len(kept.tags)
            stats.wrote("User", restored.users)
            stats.wrote("RATED", restored.ratings)
            stats.wrote("TAGGED", restored.tags)
            stats.skipped = len(restored.lost)
        self.report.notes.append(restored.note())
        self.report.app_users = restored.to_dict()

    # -- phases --------------------------------------------------------------------------------

    def _movies(self, release: Path) -> None:
        links = self._links(release)
        rows: list[dict[str, Any]] = []
        genres: set[str] = set()
        with self._phase("movies", readers.count_lines(release / "movies.csv")) as stats:
            first_line: dict[int, int] = {}
            for line, row in self._read(release / "movies.csv", readers.MOVIES, stats):
                split = split_title(row["raw_title"])
                if row["movieId"] in self.movie_ids:  # counted as skipped by `_read`
                    self.problems.add("movies.csv", line, f"movieId {row['movieId']} appears "
                                      f"again (first on line {first_line[row['movieId']]}); "
                                      "the first row is kept")  # fmt: skip
                    continue
                first_line[row["movieId"]] = line
                self.movie_ids.add(row["movieId"])
                imdb_id, tmdb_id = links.get(row["movieId"], (None, None))
                rows.append({
                    "movieId": row["movieId"], "title": split.title, "year": split.year,
                    "originalTitle": row["raw_title"], "titleNorm": normalize_title(split.title),
                    "imdbId": imdb_id, "tmdbId": tmdb_id, "genres": row["genres"],
                    "aliases": alias_rows(split), "aliasText": alias_text(split),
                })  # fmt: skip
                genres.update(row["genres"])
            self.writer.movies(rows, sorted(genres), stats)

    def _links(self, release: Path) -> dict[int, tuple[str | None, int | None]]:
        path = release / "links.csv"
        if not path.is_file():
            self.report.notes.append("no links.csv: movies get no imdbId/tmdbId")
            return {}
        with self._phase("links", readers.count_lines(path)) as stats:
            links = {
                row["movieId"]: (row["imdbId"], row["tmdbId"])
                for _, row in self._read(path, readers.LINKS, stats)
            }
            stats.wrote("Movie links", len(links))
        return links

    def _enrichment(self, path: Path) -> None:
        details: list[dict[str, Any]] = []
        acted: dict[tuple[str, int], int] = {}
        directed: dict[tuple[str, int], None] = {}
        with self._phase("enrichment", readers.count_lines(path)) as stats:
            unknown: list[int] = []
            for _, row in self._read(path, readers.ENRICHED, stats):
                if row["movieId"] not in self.movie_ids:
                    unknown.append(row["movieId"])
                    stats.skipped += 1
                    continue
                details.append({k: row[k] for k in ("movieId", "released", "imdbRating")})
                for order, name in enumerate(dict.fromkeys(row["actors"])):
                    acted[(name, row["movieId"])] = order
                for name in row["directors"]:
                    directed[(name, row["movieId"])] = None
            if unknown:
                shown = ", ".join(map(str, unknown[:10]))
                self.report.notes.append(
                    f"{len(unknown):,} rows of the enriched list {path} name a movieId that "
                    f"is not in the release (first: {shown}); they were skipped"
                )
            self.report.unmatched_enrichment = unknown
            acted, directed = merge_spellings(acted, directed)
            names = sorted({name for name, _ in acted} | {name for name, _ in directed})
            self.writer.enrichment(
                list({d["movieId"]: d for d in details}.values()),
                [{"name": n, "nameNorm": normalize_name(n)} for n in names],
                [{"name": n, "movieId": m, "order": o} for (n, m), o in acted.items()],
                [{"name": n, "movieId": m} for n, m in directed],
                stats,
            )

    def _ratings(self, release: Path) -> RatingArrays:
        path = release / readers.RATINGS.name
        with self._phase("ratings", readers.count_lines(path)) as stats:
            before = self.problems.total
            ratings = read_ratings(path, self.problems, on_lines=self._advance)
            stats.read = len(ratings)
            known = np.isin(ratings.movie, np.fromiter(self.movie_ids, np.int64))
            for line, movie in zip(
                ratings.line[~known].tolist(), ratings.movie[~known].tolist(), strict=True
            ):
                self.problems.add(path.name, line, f"movieId {movie} is not in movies.csv")
            ratings = keep_last_rating(ratings.take(np.flatnonzero(known)), path.name,
                                       self.problems)  # fmt: skip
            stats.skipped += self.problems.total - before
            self.writer.ratings(ratings, stats)
            self.report.notes.append(f"{len(np.unique(ratings.user)):,} users from ratings.csv")
        return ratings

    def _tags(self, release: Path, ratings: RatingArrays) -> None:
        path = release / "tags.csv"
        if not path.is_file():
            self.report.notes.append("no tags.csv: no tags imported")
            self.writer.tags([], [], PhaseStats("tags"))
            return
        with self._phase("tags", readers.count_lines(path)) as stats:
            rows = list(self._known_movies(self._read(path, readers.TAGS, stats), path.name, stats))
            tag_users = np.unique(np.fromiter((r["userId"] for r in rows), np.int64, len(rows)))
            new_users = np.setdiff1d(tag_users, ratings.user).tolist()
            self.writer.tags(rows, new_users, stats)

    def _derived(self, ratings: RatingArrays) -> None:
        with self._phase("derived") as stats:
            movie_ids = np.fromiter(self.movie_ids, np.int64, len(self.movie_ids))
            derived = neighbours.derive(
                ratings, movie_ids, max_likes_per_user=self.options.max_likes_per_user
            )
            stats.read = len(ratings)
            self.writer.derived(derived, stats)
            self.report.notes.append(derived.note())
            self.report.derived = derived.summary()

    # -- helpers -------------------------------------------------------------------------------

    def _read(
        self, path: Path, spec: readers.CsvSpec, stats: PhaseStats
    ) -> Iterator[tuple[int, dict[str, Any]]]:
        before = self.problems.total
        for line, row in readers.read_rows(path, spec, self.problems):
            stats.read += 1
            self._advance()
            yield line, row
        stats.skipped += self.problems.total - before

    def _known_movies(
        self, rows: Iterable[tuple[int, dict[str, Any]]], label: str, stats: PhaseStats
    ) -> Iterator[dict[str, Any]]:
        for line, row in rows:
            if row["movieId"] in self.movie_ids:
                yield row
            else:
                stats.skipped += 1
                self.problems.add(label, line, f"movieId {row['movieId']} is not in movies.csv")

    @contextmanager
    def _phase(self, name: str, total: int | None = None) -> Iterator[PhaseStats]:
        stats = self.report.phase(name)
        task = self._progress_bar.add_task(name, total=total)
        self._task = task
        started = time.perf_counter()
        try:
            yield stats
        finally:
            stats.seconds = time.perf_counter() - started
            self._progress_bar.update(task, completed=total or 1, total=total or 1)

    def _advance(self, steps: int = 1) -> None:
        self._progress_bar.advance(self._task, steps)

    @contextmanager
    def _progress(self) -> Iterator[Progress]:
        progress = Progress(
            "{task.description:<12}", BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
            disable=not self.options.show_progress,
        )  # fmt: skip
        with progress:
            yield progress


def import_release(
    graph: Graph,
    release: Path,
    enrich: Path | None = None,
    options: ImportOptions | None = None,
    on_graph: Callable[[Graph], None] | None = None,
) -> ImportReport:
    """Import into `graph` without the query time limit; snapshots are turned off during the
    writes, then turned on again and the data saved (the append-only file stays on)."""
    with graph.bulk_writes(), graph.unbounded():
        report = MovieLensImporter(graph, options).run(release, enrich)
    if on_graph:
        on_graph(graph)
    return report
