"""A fork child of the embedded server that stalls (a lock inherited held, FalkorDB#1454) is
killed, and the snapshot, rewrite or copy waiting behind it goes on; a child that works is left
alone (`stall_watch.StalledForks`).

Redis's debug setting `rdb-key-save-delay` (microseconds per key) makes a real child that sleeps
like a deadlocked one: no CPU time, no bytes. A child keeps the setting it was forked with, so
resetting it at once leaves that child sleeping and lets the next one run at full speed."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psutil
import pytest

from semantic_layer.errors import GraphUnavailableError
from semantic_layer.graph.embedded_server import EmbeddedServer
from semantic_layer.graph.falkordb_graph import FalkorGraph
from semantic_layer.graph.stall_watch import StalledForks
from semantic_layer.settings import GraphSettings

SLEEP_PER_KEY_US = 600_000_000  # ten minutes per key: longer than any wait below
RATE = {"userId": 10_000_007, "movieId": 2571, "rating": 4.5, "timestamp": 1_700_000_000}


@pytest.fixture
def server(imported: GraphSettings) -> Iterator[EmbeddedServer]:
    server = EmbeddedServer(imported.data_dir, imported.fsync, stall_s=1.0)
    try:
        yield server
    finally:
        server.client.config_set("rdb-key-save-delay", 0)
        server.close()


def _sleeping_child(server: EmbeddedServer, start: str) -> psutil.Process:
    """Start a snapshot or a rewrite whose child sleeps, and return that child."""
    client = server.client
    client.config_set("rdb-key-save-delay", SLEEP_PER_KEY_US)
    client.execute_command(start)
    client.config_set("rdb-key-save-delay", 0)  # the child forked with the delay keeps it
    pid = int(client.info("server")["process_id"])
    children = psutil.Process(pid).children()
    assert len(children) == 1
    return children[0]


def _gone(child: psutil.Process) -> bool:
    """Exited (and reaped, or about to be)."""
    try:
        return child.status() == psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return True


def test_a_stalled_snapshot_is_stopped_and_the_rewrite_behind_it_runs(
    server: EmbeddedServer, imported: GraphSettings, caplog: pytest.LogCaptureFixture
) -> None:
    child = _sleeping_child(server, "BGSAVE")
    rewrites = server.client.info("persistence")["aof_rewrites"]
    server.compact()  # its rewrite is scheduled behind the sleeping snapshot
    assert _gone(child)
    assert f"pid {child.pid}" in caplog.text and "has done no work" in caplog.text
    info = server.client.info("persistence")
    assert info["aof_rewrites"] > rewrites and info["aof_last_bgrewrite_status"] == "ok"
    assert info["rdb_last_bgsave_status"] == "ok"  # stopped as Redis stops its own children
    graph = FalkorGraph(imported, server=server)
    graph.write("memory/rate", RATE)  # so writes are still accepted (a failed one stops them)
    rows = graph.read("memory/ratings", {"userId": RATE["userId"], "limit": 5})
    assert [(r["movieId"], r["rating"]) for r in rows] == [(2571, 4.5)]


def test_a_stalled_rewrite_is_stopped_and_compacting_starts_another(
    server: EmbeddedServer,
) -> None:
    child = _sleeping_child(server, "BGREWRITEAOF")
    rewrites = server.client.info("persistence")["aof_rewrites"]  # the sleeping one counted
    server.compact()
    assert _gone(child)
    info = server.client.info("persistence")
    assert info["aof_rewrites"] == rewrites + 1  # one more started, after the stop
    assert info["aof_rewrite_in_progress"] == 0 and info["aof_last_bgrewrite_status"] == "ok"


def test_a_copy_waiting_behind_a_stalled_child_is_made(server: EmbeddedServer) -> None:
    settings = GraphSettings.from_env({"MOVIEAGENT_DATA_DIR": str(server.data_dir)})
    graph = FalkorGraph(settings, server=server)
    child = _sleeping_child(server, "BGSAVE")
    with graph.scratch_copy("stalled") as copy:
        assert copy is not None
        assert copy.read("test/movie_by_id", {"movieId": 2571})[0]["title"] == "The Matrix"
    assert _gone(child)


def test_a_working_child_is_left_alone_and_a_sleeping_one_is_stopped(tmp_path: Path) -> None:
    """The decision on its own, on a parent of two children: one busy, one asleep."""
    busy = f"{sys.executable} -c 'while True: pass'"
    parent = subprocess.Popen(["bash", "-c", f"sleep 600 & {busy} & wait"])
    try:
        deadline = time.monotonic() + 10
        while len(psutil.Process(parent.pid).children()) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        children = {c.name(): c for c in psutil.Process(parent.pid).children()}
        forks = StalledForks(parent.pid, stall_s=1.0)
        killed: list[int] = []
        deadline = time.monotonic() + 10
        while not killed and time.monotonic() < deadline:
            killed += forks.check()
            time.sleep(0.1)
        assert killed == [children["sleep"].pid]
        for _ in range(15):  # another 1.5 s: the busy child is never taken for stalled
            assert forks.check() == []
            time.sleep(0.1)
        assert children[Path(sys.executable).name].is_running()
    finally:
        for child in psutil.Process(parent.pid).children():
            child.kill()
        parent.wait(timeout=10)


class _ReportsARewrite:
    """A client whose server says a rewrite runs, as a server that lost its child does."""

    def __init__(self, pid: int) -> None:
        self.pid = pid

    def info(self, section: str) -> dict[str, Any]:
        if section == "server":
            return {"process_id": self.pid}
        return {"aof_rewrite_in_progress": 1, "aof_rewrite_scheduled": 0}


def test_a_rewrite_no_process_runs_is_an_error_not_a_wait(tmp_path: Path) -> None:
    childless = subprocess.Popen(["sleep", "600"])
    try:
        server = object.__new__(EmbeddedServer)
        server.data_dir, server.stall_s = tmp_path, 1.0
        server.db = type("Db", (), {"client": _ReportsARewrite(childless.pid)})()
        with pytest.raises(GraphUnavailableError, match="that no process runs"):
            server.wait_for_rewrite(timeout_s=60)
    finally:
        childless.kill()
        childless.wait(timeout=10)
