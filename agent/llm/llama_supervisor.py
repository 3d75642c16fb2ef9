"""Supervises the local model server (`agent.llm.llama_server`): start, health, crash, restart.

llama.cpp is native code: a crash in it (a bad kernel, memory running out) would end the whole
app, every chat session with it. So it runs in a child process, an OpenAI-compatible server on a
free loopback port, as Ollama and LM Studio run llama.cpp. `start()` spawns it when none runs
and waits until `/v1/models` answers; a child that died is reaped and its end remembered
(`crashes`), and the next `start()` spawns a fresh one. The child reads its standard input,
a pipe only this process holds: when this process ends, however it ends, the pipe closes and
the child exits; `stop()` (and the interpreter's exit) end it sooner.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import weakref
from collections import deque
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from agent.llm.llama_server import STATUS_PREFIX

log = logging.getLogger(__name__)

PACKAGE_ROOT = str(Path(__file__).resolve().parents[2])  # the folder that holds `agent/`
LOAD_TIMEOUT_S = 600.0
STOP_GRACE_S = 5.0


class ServerCrashed(Exception):
    """The server process died; `reason` says how (a signal name or an exit code)."""

    def __init__(self, reason: str, during: str) -> None:
        super().__init__(f"the model server stopped ({reason}) while {during}")
        self.reason = reason
        self.during = during


class ServerFailed(Exception):
    """The server said why it cannot serve (a sentence: a missing file, a build for another CPU)."""


@dataclass(frozen=True)
class Ready:
    url: str  # http://127.0.0.1:PORT/v1
    n_ctx: int
    pid: int


class LlamaServerProcess:
    """One supervised server process, started with `options` (llama_cpp.server's options)."""

    def __init__(self, options: dict[str, Any]) -> None:
        self.options = options
        self.ready: Ready | None = None
        self.crashes: deque[tuple[float, str]] = deque(maxlen=20)  # (time, reason)
        self._lock = threading.RLock()
        self._child: _Child | None = None
        self._finalizer = weakref.finalize(self, _Child.stop_all, [])

    @property
    def pid(self) -> int | None:
        child = self._child
        return child.process.pid if child else None

    def alive(self) -> bool:
        child = self._child
        return child is not None and child.process.poll() is None

    def exited(self, within_s: float) -> bool:
        """Whether the server has ended, waiting up to `within_s` for an end under way (a
        dropped connection comes a moment before the process is reaped)."""
        child = self._child
        if child is None:
            return True
        try:
            child.process.wait(timeout=within_s)
        except subprocess.TimeoutExpired:
            return False
        return True

    def start(self) -> Ready:
        """The running server; a fresh one (loading the model) when none runs."""
        with self._lock:
            if self.ready is not None and self.alive():
                return self.ready
            if self._child is not None:
                self.reap("waiting")
            port = _free_port()
            try:
                child = _Child.spawn(self.options, port)
            except OSError as e:
                raise ServerFailed(f"could not start the model server: {e}") from e
            self._child = child
            self._finalizer.detach()
            self._finalizer = weakref.finalize(self, _Child.stop_all, [child])
            try:
                status = child.wait_ready(f"http://127.0.0.1:{port}", LOAD_TIMEOUT_S)
            except ServerFailed:
                self.reap("")
                raise
            except ServerCrashed:
                self.reap("loading the model")
                raise
            self.ready = Ready(f"http://127.0.0.1:{port}/v1", int(status["n_ctx"]), child.pid)
            return self.ready

    def reap(self, during: str) -> str | None:
        """Forget the child (ending it if it still runs); the reason it died, if it crashed."""
        with self._lock:
            child, self._child, self.ready = self._child, None, None
            if child is None:
                return None
            child.stop()
            code = child.process.returncode
            if not during or code == 0 or code == -signal.SIGTERM:
                return None
            reason = describe_exit(code)
            self.crashes.append((time.time(), reason))
            log.warning("the model server stopped (%s) while %s", reason, during)
            return reason

    def stop(self) -> None:
        """End the server now (the next request starts a new one)."""
        self.reap("")


class _Child:
    """The process, its stdin pipe (its lifeline) and what it said on stderr."""

    def __init__(self, process: subprocess.Popen[bytes]) -> None:
        self.process = process
        self.pid = process.pid
        self.status: dict[str, Any] | None = None
        self.stderr_tail: deque[str] = deque(maxlen=20)
        self._said = threading.Event()
        threading.Thread(target=self._drain_stderr, daemon=True).start()

    @classmethod
    def spawn(cls, options: dict[str, Any], port: int) -> _Child:
        env = dict(os.environ)
        path = env.get("PYTHONPATH")
        env["PYTHONPATH"] = PACKAGE_ROOT + (os.pathsep + path if path else "")
        command = [sys.executable, "-m", "agent.llm.llama_server", "--exit_with_stdin"]
        command += ["--host", "127.0.0.1", "--port", str(port)]
        for name, value in options.items():
            if value is not None:
                command += [f"--{name}", str(value)]
        process = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            env=env,
            start_new_session=True,  # Ctrl-C in a terminal reaches the app, not the model
        )
        return cls(process)

    def wait_ready(self, base: str, timeout_s: float) -> dict[str, Any]:
        """The child's status line, once `/v1/models` answers; or why it never will."""
        deadline = time.monotonic() + timeout_s
        with httpx.Client(timeout=2.0) as http:
            while time.monotonic() < deadline:
                code = self.process.poll()
                if code is not None:
                    self._said.wait(2.0)  # the stderr reader may still be on its last lines
                    if self.status and self.status.get("error"):
                        raise ServerFailed(str(self.status["error"]))
                    tail = " | ".join(list(self.stderr_tail)[-3:])
                    raise ServerCrashed(
                        describe_exit(code) + (f": {tail}" if tail else ""), "loading the model"
                    )
                if self.status and "n_ctx" in self.status:
                    try:
                        if http.get(f"{base}/v1/models").status_code == 200:
                            return self.status
                    except httpx.HTTPError:
                        pass  # not listening yet
                time.sleep(0.1)
        self.stop()
        raise ServerCrashed(f"no answer within {timeout_s:g} s", "loading the model")

    def stop(self) -> None:
        if self.process.stdin is not None:
            with contextlib.suppress(OSError):  # the child sees end-of-file and exits by itself
                self.process.stdin.close()
        if self.process.poll() is None:
            self.process.terminate()
        try:
            self.process.wait(timeout=STOP_GRACE_S)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()

    @staticmethod
    def stop_all(children: list[_Child]) -> None:
        for child in children:
            if child.process.poll() is None:
                child.stop()

    def _drain_stderr(self) -> None:
        assert self.process.stderr is not None
        for raw in self.process.stderr:
            line = raw.decode(errors="replace").rstrip()
            if line.startswith(STATUS_PREFIX):
                with contextlib.suppress(ValueError):
                    self.status = json.loads(line.removeprefix(STATUS_PREFIX))
            elif line:
                self.stderr_tail.append(line)
                log.debug("model server: %s", line)
        self._said.set()


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def describe_exit(code: int) -> str:
    if code < 0:
        try:
            return signal.Signals(-code).name
        except ValueError:
            return f"signal {-code}"
    return f"exit code {code}"
