"""A bulk import can neither shift ratings onto other users nor lose the app's users
(issue 11, findings 1 and 2)."""

from __future__ import annotations

import signal
from pathlib import Path
from typing import Any

import pytest

from data_import.importer import ImportOptions, import_release
from semantic_layer.errors import GraphUnavailableError
from semantic_layer.graph import connect
from semantic_layer.settings import GraphSettings
from tests.reliability.conftest import ratings_csv, run_python, start_python

BULK = ImportOptions(show_progress=False, bulk=True)
APP_USER = 10_000_000


def _by_user(graph: Any) -> dict[int, tuple[int, float]]:
    return {r["userId"]: (r["ratings"], r["total"]) for r in graph.read("test/user_ratings_count")}


def _expected(app: dict[int, tuple[int, float]] | None = None) -> dict[int, tuple[int, float]]:
    """Ratings per MovieLens user as the file has them."""
    found: dict[int, tuple[int, float]] = {}
    for line in ratings_csv().splitlines()[1:]:
        user, _, rating, _ = line.split(",")
        count, total = found.get(int(user), (0, 0.0))
        found[int(user)] = (count + 1, total + float(rating))
    return {**found, **(app or {})}


def test_a_write_during_the_build_shifts_no_rating(
    imported: GraphSettings, tiny_release: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A write that lands between two GRAPH.BULK batches used to take a node id of the graph
    being built, and every MovieLens user then held the next user's ratings."""
    from semantic_layer.graph.falkordb_bulk import BulkLoader

    send = BulkLoader._send
    graph = connect(imported)

    def send_then_someone_writes(self: Any, *args: Any, **kwargs: Any) -> None:
        send(self, *args, **kwargs)
        graph.write("test/create_node")  # another client's write, in the live graph

    monkeypatch.setattr(BulkLoader, "_send", send_then_someone_writes)
    try:
        import_release(graph, tiny_release, None, BULK)
        assert _by_user(graph) == _expected()
    finally:
        graph.close()


def test_a_build_whose_node_ids_shifted_is_never_swapped_in(
    imported: GraphSettings, tiny_release: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Even a write into the private graph itself (nothing does that) cannot corrupt: the
    build checks the node ids it assumed and leaves the graph as it was."""
    from semantic_layer.errors import BulkLoadError
    from semantic_layer.graph.falkordb_bulk import BulkLoader

    send = BulkLoader._send

    def send_then_intrude(self: Any, *args: Any, **kwargs: Any) -> None:
        send(self, *args, **kwargs)
        if self.next_id and not self.edges_created:
            self.client.execute_command("GRAPH.QUERY", self.graph, "CREATE (:Intruder)")

    monkeypatch.setattr(BulkLoader, "_send", send_then_intrude)
    with connect(imported) as graph:
        with pytest.raises(BulkLoadError, match="Nothing was swapped in"):
            import_release(graph, tiny_release, None, BULK)
        assert _by_user(graph) == _expected()


def test_a_bulk_import_refuses_while_another_process_is_connected(
    imported: GraphSettings, tiny_release: Path
) -> None:
    other = start_python(
        """
        import sys
        from semantic_layer.graph import connect
        graph = connect()
        print("open", flush=True)
        sys.stdin.read()  # stay connected until the test is done
        """,
        imported.data_dir,
    )
    try:
        assert other.stdout is not None and other.stdout.readline().strip() == "open"
        with connect(imported) as graph:
            with pytest.raises(GraphUnavailableError, match="Another process is using"):
                import_release(graph, tiny_release, None, BULK)
            assert _by_user(graph) == _expected()  # nothing changed
    finally:
        other.kill()
        other.wait()


KILL_BEFORE_RESTORE = """
import os, signal
from pathlib import Path
from data_import import app_users
from data_import.importer import ImportOptions, import_release
from semantic_layer.graph import connect

def die(*args, **kwargs):
    os.kill(os.getpid(), signal.SIGKILL)  # between the build and the restore of app users

app_users.restore = die
with connect() as graph:
    import_release(graph, Path({release!r}), None, ImportOptions(show_progress=False, bulk=True))
"""


def test_an_import_killed_before_the_app_users_came_back_loses_none(
    imported: GraphSettings, tiny_release: Path
) -> None:
    with connect(imported) as graph:
        graph.write("memory/rate", {"userId": APP_USER, "movieId": 6, "rating": 5.0,
                                    "timestamp": 1})  # fmt: skip
    killed = run_python(KILL_BEFORE_RESTORE.format(release=str(tiny_release)), imported.data_dir)
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    with connect(imported) as graph:
        assert _by_user(graph)[APP_USER] == (1, 5.0)  # the graph is as it was
        import_release(graph, tiny_release, None, ImportOptions(show_progress=False))
        assert _by_user(graph) == _expected({APP_USER: (1, 5.0)})
        import_release(graph, tiny_release, None, BULK)
        assert _by_user(graph) == _expected({APP_USER: (1, 5.0)})
    assert not list(imported.data_dir.glob("app-users-backup-*.json"))  # read back, renamed
    assert list(imported.data_dir.glob("app-users-recovered-*.json"))


def test_a_backup_left_by_an_older_import_is_read_back(
    imported: GraphSettings, tiny_release: Path
) -> None:
    """A graph that lost its app users (the old bulk path deleted the graph first, then died):
    the next import, whichever path it takes, writes back what the backup holds."""
    import json

    backup = imported.data_dir / "app-users-backup-20260101-000000.json"
    backup.write_text(json.dumps([
        {"type": "User", "userId": APP_USER + 7, "properties": {"userId": APP_USER + 7,
                                                                "createdAt": 5}},
        {"type": "RATED", "userId": APP_USER + 7, "movieId": 318, "title": "Shawshank",
         "properties": {"rating": 4.0, "timestamp": 9}},
    ]), encoding="utf-8")  # fmt: skip
    with connect(imported) as graph:
        import_release(graph, tiny_release, None, ImportOptions(show_progress=False))
        assert _by_user(graph) == _expected({APP_USER + 7: (1, 4.0)})
    assert not backup.exists()
