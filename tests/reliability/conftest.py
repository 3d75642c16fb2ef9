"""A tiny release in a data directory of its own, and helpers to run the project in other
processes (the embedded server is shared per directory, so these tests own theirs)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from semantic_layer.settings import GraphSettings

REPO = Path(__file__).resolve().parents[2]
MOVIES = (
    "movieId,title,genres\n"
    "1,Toy Story (1995),Adventure|Animation|Children\n"
    "2,Jumanji (1995),Adventure|Children\n"
    "6,Heat (1995),Action|Crime|Thriller\n"
    '2571,"Matrix, The (1999)",Action|Sci-Fi\n'
    '318,"Shawshank Redemption, The (1994)",Crime|Drama\n'
)
USERS = 40


def ratings_csv() -> str:
    """USERS users; user u rates movie 1 with a rating that names the user (u % 9 + 1) / 2."""
    rows = ["userId,movieId,rating,timestamp"]
    for user in range(1, USERS + 1):
        for movie in (1, 2, 6, 2571, 318)[: 2 + user % 4]:
            rating = (user % 9 + 1) / 2 if movie == 1 else 3.0
            rows.append(f"{user},{movie},{rating},{1_000_000 + user}")
    return "\n".join(rows) + "\n"


@pytest.fixture
def tiny_release(tmp_path: Path) -> Path:
    release = tmp_path / "ml-tiny"
    release.mkdir()
    (release / "movies.csv").write_text(MOVIES, encoding="utf-8")
    (release / "ratings.csv").write_text(ratings_csv(), encoding="utf-8")
    return release


@pytest.fixture
def data_dir(tmp_path: Path) -> Iterator[Path]:
    """An empty data directory; any server left running in it is stopped afterwards."""
    folder = tmp_path / "data"
    folder.mkdir()
    yield folder
    stop_server(folder)


@pytest.fixture
def settings(data_dir: Path) -> GraphSettings:
    return GraphSettings.from_env({"MOVIEAGENT_DATA_DIR": str(data_dir)})


@pytest.fixture
def imported(settings: GraphSettings, tiny_release: Path) -> GraphSettings:
    """`settings` with the tiny release imported and the server shut down again."""
    from data_import.importer import ImportOptions, import_release
    from semantic_layer.graph import connect

    with connect(settings) as graph:
        import_release(graph, tiny_release, None, ImportOptions(show_progress=False))
    assert server_pid(settings.data_dir) is None
    return settings


def server_pid(data_dir: Path) -> int | None:
    """The pid of the redis-server recorded for `data_dir`, if that process is alive."""
    import json

    import psutil

    registry = data_dir / "movieagent.db.settings"
    if not registry.is_file():
        return None
    pidfile = Path(json.loads(registry.read_text())["pidfile"])
    if not pidfile.is_file():
        return None
    pid = int(pidfile.read_text().strip() or 0)
    return pid if pid and psutil.pid_exists(pid) else None


def stop_server(data_dir: Path) -> None:
    import signal
    import time

    pid = server_pid(data_dir)
    if pid:
        os.kill(pid, signal.SIGTERM)
        deadline = time.monotonic() + 20
        while server_pid(data_dir) and time.monotonic() < deadline:
            time.sleep(0.05)


def run_python(code: str, data_dir: Path, *, timeout: float = 120, **kwargs: Any) -> Any:
    """Run `code` in a new interpreter on this tree, with MOVIEAGENT_DATA_DIR = `data_dir`."""
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        env=project_env(data_dir),
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=timeout,
        **kwargs,
    )


def start_python(code: str, data_dir: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(code)],
        env=project_env(data_dir),
        cwd=REPO,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def project_env(data_dir: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "NEO4J_URI"}
    env["MOVIEAGENT_DATA_DIR"] = str(data_dir)
    env["PYTHONPATH"] = os.pathsep.join([str(REPO), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    return env
