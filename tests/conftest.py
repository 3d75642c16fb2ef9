"""Test-wide guards and fixtures.

No test reaches the network or a live LLM: every socket connection to an address outside the
loopback range fails the test, and the Hugging Face hub is switched to offline mode.
"""

from __future__ import annotations

import atexit
import ipaddress
import os
import shutil
import socket
import tempfile
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parent.parent
SHARED_DATA = Path(os.environ.get("MOVIEAGENT_SHARED_DATA", REPO.parent / "shared" / "data"))
ML_SMALL = SHARED_DATA / "movielens" / "ml-latest-small"
ENRICHED = SHARED_DATA / "movielens" / "enriched" / "movies.csv"

os.environ["HF_HUB_OFFLINE"] = "1"
os.environ["TRANSFORMERS_OFFLINE"] = "1"
os.environ["MOVIEAGENT_ENV_FILE"] = ""  # a developer's .env (say, a NEO4J_URI) never steers tests
# nor does their own graph: code that opens the default graph opens an empty one of the tests
# (a developer's exported MOVIEAGENT_DATA_DIR once had three of its movies rewritten by a test)
_DATA_DIR = tempfile.mkdtemp(prefix="movieagent-tests-")
os.environ["MOVIEAGENT_DATA_DIR"] = _DATA_DIR
atexit.register(shutil.rmtree, _DATA_DIR, ignore_errors=True)
for _var in ("NEO4J_URI_FOR_TESTS",):
    os.environ.pop(_var, None)

_real_connect = socket.socket.connect
_real_connect_ex = socket.socket.connect_ex


class NetworkAccessError(AssertionError):
    """A test tried to reach something outside this machine."""


def _is_local(address: Any) -> bool:
    if isinstance(address, (str, bytes)):  # AF_UNIX path
        return True
    host = address[0]
    if host in ("localhost", ""):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _guarded_connect(self: socket.socket, address: Any) -> None:
    if not _is_local(address):
        raise NetworkAccessError(f"test tried to connect to {address!r}; tests stay on loopback")
    return _real_connect(self, address)


def _guarded_connect_ex(self: socket.socket, address: Any) -> int:
    if not _is_local(address):
        raise NetworkAccessError(f"test tried to connect to {address!r}; tests stay on loopback")
    return _real_connect_ex(self, address)


socket.socket.connect = _guarded_connect  # type: ignore[method-assign]
socket.socket.connect_ex = _guarded_connect_ex  # type: ignore[method-assign]


@pytest.fixture(scope="session")
def ml_small() -> Path:
    if not (ML_SMALL / "ratings.csv").is_file():
        pytest.skip(f"MovieLens data not found at {ML_SMALL}")
    return ML_SMALL


@pytest.fixture(scope="session")
def enriched_csv() -> Path:
    if not ENRICHED.is_file():
        pytest.skip(f"enriched movie list not found at {ENRICHED}")
    return ENRICHED


@pytest.fixture(scope="session")
def graph_settings(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """Settings for an embedded graph in a temporary data directory (never the user's own)."""
    from semantic_layer.settings import GraphSettings

    data_dir = tmp_path_factory.mktemp("movieagent-data")
    return GraphSettings.from_env({"MOVIEAGENT_DATA_DIR": str(data_dir)})


@pytest.fixture(scope="session")
def movie_graph(graph_settings: Any, ml_small: Path, enriched_csv: Path) -> Any:
    """The real ml-latest-small + enriched data, imported once per test session.

    Treat it as read-only; tests that write use `writable_graph`.
    """
    from data_import.importer import ImportOptions, import_release
    from semantic_layer.graph import connect

    graph = connect(graph_settings)
    import_release(graph, ml_small, enriched_csv, ImportOptions(show_progress=False))
    yield graph
    graph.close()


@pytest.fixture
def writable_graph(movie_graph: Any, graph_settings: Any) -> Any:
    """A private copy of `movie_graph` (`Graph.scratch_copy`) that a test may change."""
    with movie_graph.scratch_copy("test") as graph:
        assert graph is not None, "the test graph cannot be copied"
        yield graph
