"""A recorded embedded server that stops answering and working is replaced, and loses nothing;
one that is only idle is left alone (`semantic_layer.graph.stall_watch`)."""

from __future__ import annotations

import contextlib
import os
import signal
import threading
import time
from collections.abc import Iterator

import psutil
import pytest

from semantic_layer.graph import connect
from semantic_layer.graph.embedded_server import DB_FILE, EmbeddedServer
from semantic_layer.graph.falkordb_graph import FalkorGraph
from semantic_layer.graph.stall_watch import watching
from semantic_layer.settings import GraphSettings
from tests.reliability.conftest import server_pid

RATE = {"userId": 10_000_001, "movieId": 2571, "rating": 4.5, "timestamp": 1_700_000_000}


@contextlib.contextmanager
def frozen(pid: int) -> Iterator[None]:
    """The process stopped (SIGSTOP) while the block runs, then let go if it still exists."""
    os.kill(pid, signal.SIGSTOP)
    try:
        yield
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGCONT)


def _gone(pid: int, wait_s: float = 10.0) -> bool:
    deadline = time.monotonic() + wait_s
    while time.monotonic() < deadline:
        try:
            if psutil.Process(pid).status() == psutil.STATUS_ZOMBIE:
                return True
        except psutil.NoSuchProcess:
            return True
        time.sleep(0.05)
    return False


def test_a_server_that_stopped_answering_is_replaced_and_keeps_the_ratings(
    imported: GraphSettings,
) -> None:
    first = connect(imported)
    first.write("memory/rate", RATE)  # acknowledged: in the append-only file
    stuck = server_pid(imported.data_dir)
    assert stuck is not None
    try:
        with frozen(stuck):
            server = EmbeddedServer(imported.data_dir, imported.fsync, stall_s=1.0)
            try:
                assert _gone(stuck)
                replacement = server_pid(imported.data_dir)
                assert replacement is not None and replacement != stuck
                graph = FalkorGraph(imported, server=server)
                rows = graph.read("memory/ratings", {"userId": RATE["userId"], "limit": 5})
                assert [(r["movieId"], r["rating"]) for r in rows] == [(2571, 4.5)]
            finally:
                server.close()
    finally:
        first.close()  # its server is gone: closing says nothing and stops no other
    assert server_pid(imported.data_dir) is None


def test_a_server_frozen_for_less_than_the_stall_window_is_kept(
    imported: GraphSettings,
) -> None:
    with connect(imported) as first:
        pid = server_pid(imported.data_dir)
        assert pid is not None
        with frozen(pid):
            threading.Timer(0.8, os.kill, (pid, signal.SIGCONT)).start()
            server = EmbeddedServer(imported.data_dir, imported.fsync, stall_s=5.0)
        try:
            assert server_pid(imported.data_dir) == pid  # attached to the same server
            assert first.read("memory/ratings", {"userId": 1, "limit": 1})
        finally:
            server.close()


def test_an_idle_server_that_answers_is_not_stopped(imported: GraphSettings) -> None:
    """An idle server does no work; its answers alone keep the watcher from stopping it."""
    with connect(imported):
        pid = server_pid(imported.data_dir)
        with watching(imported.data_dir / (DB_FILE + ".settings"), stall_s=0.5) as watch:
            time.sleep(2.5)
        assert watch.killed is None
        assert server_pid(imported.data_dir) == pid


def test_the_watcher_stops_a_frozen_server_and_says_which(imported: GraphSettings) -> None:
    with connect(imported):
        pid = server_pid(imported.data_dir)
        assert pid is not None
        with frozen(pid), watching(imported.data_dir / (DB_FILE + ".settings"), 0.5) as w:
            deadline = time.monotonic() + 10
            while w.killed is None and time.monotonic() < deadline:
                time.sleep(0.05)
        assert w.killed == pid
        assert _gone(pid)


@pytest.fixture(autouse=True)
def _no_frozen_server_left(imported: GraphSettings) -> Iterator[None]:
    yield
    pid = server_pid(imported.data_dir)
    if pid is not None:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGCONT)
