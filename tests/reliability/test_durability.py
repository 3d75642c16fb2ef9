"""An acknowledged rating survives a crash of the embedded server (issue 11, finding 4)."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest

from data_import.importer import ImportOptions, import_release
from semantic_layer.graph import connect
from semantic_layer.graph.embedded_server import DEFAULT_SNAPSHOTS
from semantic_layer.settings import GraphSettings
from tests.reliability.conftest import server_pid

RATE = {"userId": 10_000_001, "movieId": 2571, "rating": 4.5, "timestamp": 1_700_000_000}


def _kill_server(data_dir: Path) -> None:
    pid = server_pid(data_dir)
    assert pid is not None
    os.kill(pid, signal.SIGKILL)
    deadline = time.monotonic() + 10
    while server_pid(data_dir) and time.monotonic() < deadline:
        time.sleep(0.02)


@pytest.mark.parametrize("fsync", ["everysec", "always"])
def test_a_stored_rating_survives_a_kill_of_the_server(
    imported: GraphSettings, monkeypatch: pytest.MonkeyPatch, fsync: str
) -> None:
    settings = GraphSettings.from_env(
        {"MOVIEAGENT_DATA_DIR": str(imported.data_dir), "MOVIEAGENT_FSYNC": fsync}
    )
    graph = connect(settings)
    graph.write("memory/rate", RATE)  # acknowledged: "Stored"
    _kill_server(settings.data_dir)
    graph.close()  # the server is gone: closing says nothing
    with connect(settings) as again:
        rows = again.read("memory/ratings", {"userId": RATE["userId"], "limit": 5})
    assert [(r["movieId"], r["rating"]) for r in rows] == [(2571, 4.5)]


def test_after_an_import_the_server_is_durable_again(
    imported: GraphSettings, tiny_release: Path
) -> None:
    with connect(imported) as graph:
        import_release(graph, tiny_release, None, ImportOptions(show_progress=False, bulk=True))
        config = graph.client.config_get("*")  # type: ignore[attr-defined]
        assert config["save"] == DEFAULT_SNAPSHOTS
        assert config["appendonly"] == "yes" and config["appendfsync"] == "always"
        graph.write("memory/rate", RATE)
        _kill_server(imported.data_dir)
    with connect(imported) as graph:
        assert graph.read("memory/ratings", {"userId": RATE["userId"], "limit": 5})
        assert len(graph.read("test/all_ratings")) > 100  # the imported ratings too
