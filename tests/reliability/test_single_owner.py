"""One embedded server per data directory, shared by every process; orphans reused and made
durable; the last client shuts it down (issue 11, findings 3 and 4)."""

from __future__ import annotations

import json
import signal
import time
from pathlib import Path

from semantic_layer.graph import connect
from semantic_layer.graph.embedded_server import AOF_REWRITE_PERCENTAGE, DEFAULT_SNAPSHOTS
from semantic_layer.settings import GraphSettings
from semantic_layer.users import FIRST_APP_USER_ID
from tests.reliability.conftest import run_python, server_pid, start_python

# A `movieagent tool memory` run that starts at the same instant as its twin: the imports are
# done first, then both wait for the same moment before the command opens the graph.
MEMORY_RUN = """
import time
from movieagent.cli import app
while time.time() < START:
    time.sleep(0.001)
app(["tool", "memory", "--args", ARGS, "--json"])
"""


def _app_ratings(settings: GraphSettings) -> dict[int, dict[int, float]]:
    with connect(settings) as graph:
        rows = graph.read("import/app_ratings", {"firstId": FIRST_APP_USER_ID})
    found: dict[int, dict[int, float]] = {}
    for row in rows:
        found.setdefault(row["userId"], {})[row["movieId"]] = row["properties"]["rating"]
    return found


def test_two_memory_runs_at_once_keep_both_ratings_under_two_users(
    imported: GraphSettings,
) -> None:
    start = time.time() + 5.0  # both interpreters are up and waiting by then
    runs = [
        start_python(
            MEMORY_RUN.replace("START", repr(start)).replace("ARGS", repr(args)), imported.data_dir
        )
        for args in ('{"movie": "Heat", "rating": 4}', '{"movie": "Jumanji", "rating": 2}')
    ]
    outputs = [run.communicate(timeout=120) for run in runs]
    for run, (_, err) in zip(runs, outputs, strict=True):
        assert run.returncode == 0, err
    heat, jumanji = (json.loads(out)["data"]["userId"] for out, _ in outputs)
    assert heat != jumanji
    assert _app_ratings(imported) == {heat: {6: 4.0}, jumanji: {2: 2.0}}


def test_a_second_process_attaches_to_the_running_server(imported: GraphSettings) -> None:
    with connect(imported) as graph:
        pid = server_pid(imported.data_dir)
        other = run_python(
            """
            from semantic_layer.graph import connect
            from tests.reliability.conftest import server_pid
            from semantic_layer.settings import GraphSettings
            settings = GraphSettings.from_env()
            with connect(settings) as graph:
                heat = graph.read("test/movie_by_id", {"movieId": 6})[0]["title"]
                print(server_pid(settings.data_dir), heat)
            """,
            imported.data_dir,
        )
        assert other.returncode == 0, other.stderr
        assert other.stdout.split() == [str(pid), "Heat"]
        assert server_pid(imported.data_dir) == pid  # still running: this process uses it
        assert graph.read("test/movie_by_id", {"movieId": 6})[0]["title"] == "Heat"
    assert server_pid(imported.data_dir) is None  # the last client shut it down


def test_the_server_of_a_killed_process_is_reused_made_durable_and_then_shut_down(
    imported: GraphSettings,
) -> None:
    killed = run_python(
        """
        import os, signal
        from semantic_layer.graph import connect
        graph = connect()
        graph.client.config_set("save", "")  # as an import does while it runs
        graph.client.config_set("auto-aof-rewrite-percentage", 0)
        graph.client.config_set("appendonly", "no")
        graph.write("memory/rate", {"userId": 10000005, "movieId": 1, "rating": 4.5,
                                    "timestamp": 1})
        os.kill(os.getpid(), signal.SIGKILL)
        """,
        imported.data_dir,
    )
    assert killed.returncode == -signal.SIGKILL
    orphan = server_pid(imported.data_dir)
    assert orphan is not None  # the server outlives its parent...
    with connect(imported) as graph:
        assert server_pid(imported.data_dir) == orphan  # ...and the next process reuses it
        config = graph.client.config_get("*")  # type: ignore[attr-defined]
        assert config["save"] == DEFAULT_SNAPSHOTS and config["appendonly"] == "yes"
        assert config["auto-aof-rewrite-percentage"] == str(AOF_REWRITE_PERCENTAGE)
        assert graph.read("memory/ratings", {"userId": 10000005, "limit": 5})[0]["rating"] == 4.5
    deadline = time.monotonic() + 10
    while server_pid(imported.data_dir) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert server_pid(imported.data_dir) is None  # not left running forever


def test_a_closed_connection_is_not_reopened_by_a_late_read(tmp_path: Path) -> None:
    """A background reader (the neighbourhood load) that queried after its command closed the
    graph made redis-py reconnect; with another client attached, that connection stayed open,
    and the last client's close then kept the server running, orphaned."""
    import pytest

    from semantic_layer.errors import GraphUnavailableError

    settings = GraphSettings.from_env({"MOVIEAGENT_DATA_DIR": str(tmp_path)})
    with connect(settings) as other:
        graph = connect(settings)
        name = graph._server.name  # type: ignore[attr-defined]
        graph.close()
        with pytest.raises(GraphUnavailableError, match="closed"):
            graph.read("admin/node_counts")
        clients = [c.get("name") for c in other._server.client.client_list()]  # type: ignore[attr-defined]
        assert name not in clients
        pid = server_pid(tmp_path)
    assert pid is not None
    deadline = time.monotonic() + 10
    while _alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(pid), "the last close left the graph server running"


def _alive(pid: int) -> bool:
    import psutil

    return psutil.pid_exists(pid) and psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
