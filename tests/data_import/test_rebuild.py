"""The bulk path rebuilding an existing graph: app users survive, the indexes are usable when the
import returns, and the summary credits each phase with what the build wrote for it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from data_import.importer import ImportOptions, import_release
from semantic_layer.graph_stats import graph_stats
from semantic_layer.users import new_user_id

BULK = ImportOptions(show_progress=False, bulk=True)
GONE_MOVIE = 999_999_999  # a movie the release does not have


def _rate(graph: Any, user_id: int, movie_id: int, rating: float) -> None:
    """A rating as the app's memory stores it."""
    graph.write(
        "memory/rate",
        {"userId": user_id, "movieId": movie_id, "rating": rating, "timestamp": 1_700_000_000},
    )


def _ratings(graph: Any, user_id: int) -> dict[int, float]:
    rows = graph.read("memory/ratings", {"userId": user_id, "limit": 100})
    return {r["movieId"]: r["rating"] for r in rows}


def test_bulk_rebuild_keeps_app_users_and_their_ratings(
    writable_graph: Any, ml_small: Path, enriched_csv: Path
) -> None:
    user = new_user_id(writable_graph)
    _rate(writable_graph, user, 2571, 4.5)  # The Matrix
    _rate(writable_graph, user, 1, 2.0)  # Toy Story
    before = graph_stats(writable_graph)

    report = import_release(writable_graph, ml_small, enriched_csv, BULK)

    assert _ratings(writable_graph, user) == {2571: 4.5, 1: 2.0}
    created = writable_graph.read("import/app_users", {"firstId": user})
    assert created[0]["properties"]["createdAt"] > 0  # the user's own properties came back
    assert graph_stats(writable_graph) == before  # a second (bulk) run changes no count
    assert report.app_users == {
        "users": 1, "ratings": 2, "tags": 0, "not_restored": 0, "saved_to": None,
    }  # fmt: skip
    assert "kept 1 app users with 2 ratings" in " ".join(report.notes)


def test_a_kept_rating_of_a_movie_gone_from_the_release_is_reported_and_saved(
    writable_graph: Any, ml_small: Path, enriched_csv: Path
) -> None:
    writable_graph.write(
        "import/movies",
        {"rows": [{"movieId": GONE_MOVIE, "title": "Gone Movie", "year": 2001,
                   "originalTitle": "Gone Movie (2001)", "titleNorm": "gone movie",
                   "imdbId": None, "tmdbId": None}]},
    )  # fmt: skip
    user = new_user_id(writable_graph)
    _rate(writable_graph, user, GONE_MOVIE, 5.0)
    _rate(writable_graph, user, 2571, 4.0)

    report = import_release(writable_graph, ml_small, enriched_csv, BULK)

    assert _ratings(writable_graph, user) == {2571: 4.0}
    assert report.app_users is not None and report.app_users["not_restored"] == 1
    note = " ".join(report.notes)
    assert f"user {user} → movie {GONE_MOVIE} (Gone Movie)" in note
    saved = json.loads(Path(report.app_users["saved_to"]).read_text(encoding="utf-8"))
    assert [(r["userId"], r["movieId"], r["properties"]["rating"]) for r in saved] == [
        (user, GONE_MOVIE, 5.0)
    ]
    phase = next(p for p in report.phases if p.name == "app users")
    assert phase.skipped == 1 and phase.details == {"User": 1, "RATED": 1, "TAGGED": 0}


def test_indexes_are_usable_when_the_bulk_import_returns(
    writable_graph: Any, ml_small: Path, enriched_csv: Path
) -> None:
    report = import_release(writable_graph, ml_small, enriched_csv, BULK)
    statuses = writable_graph.read("import/index_status")
    assert statuses and {r["status"] for r in statuses} == {"OPERATIONAL"}
    titles = writable_graph.read("resolve/movie_fulltext", {"query": "matrix", "limit": 5})
    assert "The Matrix" in [r["title"] for r in titles]
    assert report.indexes_pending == []
    assert "indexes" in [p.name for p in report.phases]
    assert report.to_dict()["indexes"] == {"ready": True, "pending": []}


def test_wait_for_indexes_polls_until_operational_and_gives_up_at_the_deadline(
    writable_graph: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    building = {"label": "Movie", "properties": ["title"], "status": "UNDER CONSTRUCTION"}
    ready = {**building, "status": "OPERATIONAL"}
    replies = [[building], [building], [ready]]
    monkeypatch.setattr(writable_graph, "read", lambda name, params=None: replies.pop(0))
    progress: list[tuple[int, int]] = []
    assert writable_graph.wait_for_indexes(5.0, lambda *a: progress.append(a), poll_s=0) == []
    assert progress == [(0, 1), (0, 1), (1, 1)]

    monkeypatch.setattr(writable_graph, "read", lambda name, params=None: [building])
    assert writable_graph.wait_for_indexes(0.0) == ["Movie(title): UNDER CONSTRUCTION"]


def test_indexes_still_building_are_named_in_the_summary(
    writable_graph: Any, ml_small: Path, enriched_csv: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pending = ["Movie(title): [Indexing] 5/9742: UNDER CONSTRUCTION"]
    monkeypatch.setattr(writable_graph, "wait_for_indexes", lambda *a, **k: pending)
    options = ImportOptions(show_progress=False, index_timeout_s=7)
    report = import_release(writable_graph, ml_small, enriched_csv, options)
    assert report.to_dict()["indexes"] == {"ready": False, "pending": pending}
    assert any("still being built after 7 s" in note for note in report.notes)


def test_bulk_summary_credits_each_phase_with_what_the_build_wrote(
    writable_graph: Any, ml_small: Path, enriched_csv: Path
) -> None:
    report = import_release(writable_graph, ml_small, enriched_csv, BULK)
    phases = {p.name: p for p in report.phases}
    stats = graph_stats(writable_graph)
    assert phases["movies"].details == {"Movie": 9742, "Genre": 19,
                                        "IN_GENRE": stats["relationships"]["IN_GENRE"],
                                        "Alias": stats["nodes"]["Alias"],
                                        "ALIAS_OF": stats["relationships"]["ALIAS_OF"]}  # fmt: skip
    assert phases["enrichment"].details["Person"] == stats["nodes"]["Person"]
    assert phases["ratings"].details == {"User": 610, "RATED": 100_836}
    assert phases["tags"].details["TAGGED"] == 3683
    assert phases["derived"].details == {
        "SIMILAR": stats["relationships"]["SIMILAR"],
        "Tag": stats["nodes"]["Tag"],
        "TAGS": stats["relationships"]["TAGS"],
    }
    credited = sum(phases[n].written for n in ("movies", "enrichment", "ratings", "tags",
                                                "derived"))  # fmt: skip
    assert phases["build"].written == credited
    as_json = {p["name"]: p for p in report.to_dict()["phases"]}
    assert as_json["ratings"]["written"] == 100_836 + 610
    assert as_json["ratings"]["details"] == {"User": 610, "RATED": 100_836}
    assert any(f"rows of the enriched list {enriched_csv}" in n for n in report.notes)


def test_a_failing_bulk_build_leaves_the_app_users_in_a_file(
    writable_graph: Any, ml_small: Path, enriched_csv: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from data_import.bulk_writer import BulkWriter
    from data_import.errors import ImportDataError

    user = new_user_id(writable_graph)
    _rate(writable_graph, user, 2571, 4.5)

    def broken_build(self: Any, stats: Any, app_tags: Any = None) -> None:
        raise RuntimeError("disk full")

    monkeypatch.setattr(BulkWriter, "build", broken_build)
    with pytest.raises(ImportDataError, match="disk full") as failure:
        import_release(writable_graph, ml_small, enriched_csv, BULK)

    saved = Path(str(failure.value).rsplit(" saved in ", 1)[1].rstrip("."))
    rows = json.loads(saved.read_text(encoding="utf-8"))
    assert {(r["type"], r["userId"]) for r in rows} == {("User", user), ("RATED", user)}
    saved.unlink()


def test_the_backup_file_is_removed_after_a_successful_rebuild(
    writable_graph: Any, ml_small: Path, enriched_csv: Path, graph_settings: Any
) -> None:
    def backups() -> set[Path]:
        return set(Path(graph_settings.data_dir).glob("app-users-backup-*.json"))

    user = new_user_id(writable_graph)
    _rate(writable_graph, user, 1, 3.0)
    before = backups()
    import_release(writable_graph, ml_small, enriched_csv, BULK)
    assert backups() == before
