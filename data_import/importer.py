"""Import a MovieLens release (plus an optional enriched movie list) into the graph.

Batched, parameterized, idempotent writes (`MERGE` on the keys), one progress bar per phase,
and a report of rows read, written and skipped. Bad rows are reported by file and line.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

from data_import import readers
from data_import.batches import batched
from data_import.errors import SourceError
from data_import.problems import Problems
from data_import.report import ImportReport, PhaseStats
from data_import.titles import display_title
from semantic_layer.graph import Graph
from semantic_layer.normalize import normalize_name, normalize_title


@dataclass
class ImportOptions:
    batch_size: int = 5_000
    rating_batch_size: int = 20_000
    show_progress: bool = True


class MovieLensImporter:
    def __init__(self, graph: Graph, options: ImportOptions | None = None) -> None:
        self.graph = graph
        self.options = options or ImportOptions()
        self.movie_ids: set[int] = set()
        self.report = ImportReport(source="", backend=graph.backend)

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
        with self._progress() as progress:
            self._progress_bar = progress
            with self._phase("schema"):
                self.graph.ensure_schema()
            self._movies(release)
            if enrich is not None:
                self._enrichment(enrich)
            self._users_and_ratings(release)
            self._tags(release)
        return self.report

    # -- phases --------------------------------------------------------------------------------

    def _movies(self, release: Path) -> None:
        links = self._links(release)
        rows: list[dict[str, Any]] = []
        genres: set[str] = set()
        with self._phase("movies", readers.count_lines(release / "movies.csv")) as stats:
            for _, row in self._read(release / "movies.csv", readers.MOVIES, stats):
                title, year = display_title(row["raw_title"])
                if row["movieId"] in self.movie_ids:
                    stats.skipped += 1
                    continue
                self.movie_ids.add(row["movieId"])
                imdb_id, tmdb_id = links.get(row["movieId"], (None, None))
                rows.append({
                    "movieId": row["movieId"], "title": title, "year": year,
                    "originalTitle": row["raw_title"], "titleNorm": normalize_title(title),
                    "imdbId": imdb_id, "tmdbId": tmdb_id, "genres": row["genres"],
                })  # fmt: skip
                genres.update(row["genres"])
            self._write("import/genres", sorted(genres), stats, count=False)
            self._write("import/movies", rows, stats)
            self._write("import/movie_genres", rows, stats, count=False)

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
            stats.written = len(links)
        return links

    def _enrichment(self, path: Path) -> None:
        details: list[dict[str, Any]] = []
        acted: list[dict[str, Any]] = []
        directed: list[dict[str, Any]] = []
        with self._phase("enrichment", readers.count_lines(path)) as stats:
            unknown: list[int] = []
            for _, row in self._read(path, readers.ENRICHED, stats):
                if row["movieId"] not in self.movie_ids:
                    unknown.append(row["movieId"])
                    stats.skipped += 1
                    continue
                details.append({k: row[k] for k in ("movieId", "released", "imdbRating")})
                acted += [
                    {"name": n, "movieId": row["movieId"], "order": i}
                    for i, n in enumerate(dict.fromkeys(row["actors"]))
                ]
                directed += [
                    {"name": n, "movieId": row["movieId"]} for n in dict.fromkeys(row["directors"])
                ]
            if unknown:
                shown = ", ".join(map(str, unknown[:10]))
                self.report.notes.append(
                    f"{len(unknown):,} rows of {path.name} name a movieId that is not in the "
                    f"release (first: {shown}); they were skipped"
                )
            self.report.unmatched_enrichment = unknown
            names = sorted({r["name"] for r in acted} | {r["name"] for r in directed})
            people = [{"name": n, "nameNorm": normalize_name(n)} for n in names]
            self._write("import/movie_details", details, stats, count=False)
            self._write("import/people", people, stats)
            self._write("import/acted_in", acted, stats, count=False)
            self._write("import/directed", directed, stats, count=False)

    def _users_and_ratings(self, release: Path) -> None:
        path = release / "ratings.csv"
        with self._phase("ratings", readers.count_lines(path)) as stats:
            users: set[int] = set()
            rows = self._known_movies(self._read(path, readers.RATINGS, stats), path.name, stats)
            for batch in batched(rows, self.options.rating_batch_size):
                new_users = {r["userId"] for r in batch} - users
                if new_users:
                    users |= new_users
                    self.graph.write("import/users", {"rows": sorted(new_users)})
                self.graph.write("import/ratings", {"rows": batch})
                stats.written += len(batch)
            self.report.notes.append(f"{len(users):,} users from ratings.csv")
            self._users = users

    def _tags(self, release: Path) -> None:
        path = release / "tags.csv"
        if not path.is_file():
            self.report.notes.append("no tags.csv: no tags imported")
            return
        with self._phase("tags", readers.count_lines(path)) as stats:
            rows = list(self._known_movies(self._read(path, readers.TAGS, stats), path.name, stats))
            new_users = sorted({r["userId"] for r in rows} - self._users)
            self._write("import/users", new_users, stats, count=False)
            self._write("import/tags", rows, stats)

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

    def _write(self, query: str, rows: list[Any], stats: PhaseStats, *, count: bool = True) -> None:
        for batch in batched(rows, self.options.batch_size):
            self.graph.write(query, {"rows": batch})
            if count:
                stats.written += len(batch)

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

    def _advance(self) -> None:
        self._progress_bar.advance(self._task)

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
    """Import into `graph`; snapshots are turned off during the writes and saved afterwards."""
    set_snapshots = getattr(graph, "set_snapshots", None)
    if set_snapshots:
        set_snapshots(False)
    try:
        report = MovieLensImporter(graph, options).run(release, enrich)
    finally:
        if set_snapshots:
            set_snapshots(True)
            graph.save()  # type: ignore[attr-defined]
    if on_graph:
        on_graph(graph)
    return report
