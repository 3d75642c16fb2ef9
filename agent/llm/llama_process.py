"""Supervises the model process (`agent.llm.llama_worker`): start, queue, crash, restart.

llama.cpp is native code: a crash in it (a bad kernel, memory running out) would end the whole
app, every chat session with it. So it runs in a child process, like Ollama and LM Studio do.
The child starts on first use; generations are queued here, one at a time (a `Llama` serves
one request at a time anyway, and its KV cache then carries over from one step to the next).
When the child dies, the request in flight fails with `ModelCrashed` and the next request
starts a fresh child. The child exits on its own when this process goes away (see the worker).
"""

from __future__ import annotations

import itertools
import logging
import os
import signal
import subprocess
import sys
import threading
import time
import weakref
from collections import deque
from collections.abc import Generator
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

PACKAGE_ROOT = str(Path(__file__).resolve().parents[2])  # the folder that holds `agent/`
LOAD_TIMEOUT_S = 1800.0  # the first load may fetch the default model from the hub
CANCEL_GRACE_S = 30.0  # a cancelled generation stops at its next token


class ModelCrashed(Exception):
    """The model process died; `reason` says how (a signal name or an exit code)."""

    def __init__(self, reason: str, during: str) -> None:
        super().__init__(f"the model process stopped ({reason}) while {during}")
        self.reason = reason
        self.during = during


class ModelError(Exception):
    """The model process answered with an error: `kind` is "load", "context" or "internal"."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


class ModelTimeout(Exception):
    """No message from the model process within the time allowed."""


class LlamaProcess:
    """One supervised model process, with the options it loads the model with."""

    def __init__(self, options: dict[str, Any]) -> None:
        self.options = options
        self.ready: dict[str, Any] | None = None  # the child's "ready" message while it runs
        self.crashes: deque[tuple[float, str]] = deque(maxlen=20)  # (time, reason)
        self._queue = threading.Lock()  # one generation at a time
        self._state = threading.RLock()  # start, reap, stop
        self._child: _Child | None = None
        self._ids = itertools.count(1)
        self._finalizer = weakref.finalize(self, _Child.stop_all, [])

    @property
    def pid(self) -> int | None:
        child = self._child
        return child.process.pid if child else None

    def start(self) -> dict[str, Any]:
        """The running child's "ready" message; a fresh child when none runs (loads the model)."""
        with self._state:
            child = self._child
            if child is not None and child.process.poll() is None and self.ready is not None:
                return self.ready
            if child is not None:
                self._reap(child, "waiting")
            try:
                child = _Child.spawn()
            except OSError as e:
                raise ModelError("load", f"could not start the model process: {e}") from e
            self._child = child
            self._finalizer.detach()
            self._finalizer = weakref.finalize(self, _Child.stop_all, [child])
            try:
                child.send({"kind": "load", **self.options})
                message = child.receive(LOAD_TIMEOUT_S, "loading the model")
            except (ModelCrashed, ModelTimeout) as e:
                self._reap(child, "loading the model")
                raise ModelCrashed(getattr(e, "reason", "no reply"), "loading the model") from e
            if message["kind"] == "error":
                self._reap(child, "")
                raise ModelError(message["error"], message["message"])
            self.ready = message
            if message.get("warning"):
                log.warning("%s", message["warning"])
            return message

    def generate(
        self, request: dict[str, Any], timeout_s: float
    ) -> Generator[dict[str, Any], None, None]:
        """Queue one generation; yield a `started` message (`waited_s`: the time spent behind
        other sessions' generations and loading the model), its `chunk` messages, then `done`."""
        queued = time.monotonic()
        with self._queue:
            self.start()
            yield {"kind": "started", "waited_s": time.monotonic() - queued}
            child = self._child
            assert child is not None
            rid = next(self._ids)
            finished = False
            try:
                child.send({"kind": "generate", "id": rid, **request})
                while True:
                    message = self._next(child, rid, timeout_s)
                    if message["kind"] == "error":
                        finished = True
                        raise ModelError(message["error"], message["message"])
                    finished = message["kind"] == "done"
                    yield message
                    if finished:
                        return
            finally:
                if not finished:
                    self._cancel(child, rid)

    def stop(self) -> None:
        """End the child now (it restarts on the next request)."""
        with self._state:
            if self._child is not None:
                self._reap(self._child, "")

    def _next(self, child: _Child, rid: int, timeout_s: float) -> dict[str, Any]:
        while True:
            try:
                message = child.receive(timeout_s, "answering")
            except ModelCrashed:
                self._reap(child, "answering")
                raise
            if message.get("id") == rid:
                return message  # anything else is the tail of a cancelled request

    def _cancel(self, child: _Child, rid: int) -> None:
        """Stop an abandoned generation; a child that does not stop in time is ended."""
        if child.process.poll() is not None:
            self._reap(child, "answering")
            return
        try:
            child.send({"kind": "cancel", "id": rid})
            deadline = time.monotonic() + CANCEL_GRACE_S
            while (left := deadline - time.monotonic()) > 0:
                message = child.receive(left, "stopping")
                if message.get("id") == rid and message["kind"] in ("done", "error"):
                    return
        except (ModelCrashed, ModelTimeout, OSError):
            pass
        log.warning("the model process did not stop a cancelled generation; restarting it")
        self._reap(child, "", kill=True)

    def _reap(self, child: _Child, during: str, *, kill: bool = False) -> None:
        """Forget a dead (or stuck) child; remember how it died."""
        with self._state:
            if child.reaped:
                return
            child.reaped = True
            child.stop(kill=kill)
            if self._child is child:
                self._child, self.ready = None, None
            code = child.process.wait()
            if during and code != 0:
                reason = _describe_exit(code)
                self.crashes.append((time.time(), reason))
                log.warning("the model process stopped (%s) while %s", reason, during)


class _Child:
    """The process and its two pipes."""

    def __init__(self, process: subprocess.Popen[bytes], out: Connection, back: Connection) -> None:
        self.process = process
        self._out = out
        self._back = back
        self.reaped = False
        self.stderr_tail: deque[str] = deque(maxlen=20)
        threading.Thread(target=self._drain_stderr, daemon=True).start()

    @classmethod
    def spawn(cls) -> _Child:
        to_child_r, to_child_w = os.pipe()
        from_child_r, from_child_w = os.pipe()
        env = dict(os.environ)
        path = env.get("PYTHONPATH")
        env["PYTHONPATH"] = PACKAGE_ROOT + (os.pathsep + path if path else "")
        try:
            process = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "agent.llm.llama_worker",
                    str(to_child_r),
                    str(from_child_w),
                ],
                pass_fds=(to_child_r, from_child_w),
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
                env=env,
                start_new_session=True,  # Ctrl-C in a terminal reaches the app, not the model
            )
        finally:
            os.close(to_child_r)
            os.close(from_child_w)
        return cls(process, Connection(to_child_w, readable=False), Connection(from_child_r))

    def send(self, message: dict[str, Any]) -> None:
        try:
            self._out.send(message)
        except OSError as e:  # a broken pipe: the child is gone
            raise ModelCrashed(_describe_exit(self.process.wait()), "answering") from e

    def receive(self, timeout_s: float, during: str) -> dict[str, Any]:
        try:
            if not self._back.poll(timeout_s):
                raise ModelTimeout(f"no reply from the model process within {timeout_s:g} s")
            message: dict[str, Any] = self._back.recv()
        except (EOFError, OSError) as e:
            raise ModelCrashed(_describe_exit(self.process.wait()), during) from e
        return message

    def stop(self, *, kill: bool = False) -> None:
        for pipe in (self._out, self._back):
            pipe.close()  # the child sees end-of-file and exits by itself
        if kill and self.process.poll() is None:
            self.process.kill()
        try:
            self.process.wait(timeout=2)
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
            if line:
                self.stderr_tail.append(line)
                log.debug("model process: %s", line)


def _describe_exit(code: int) -> str:
    if code < 0:
        try:
            return signal.Signals(-code).name
        except ValueError:
            return f"signal {-code}"
    return f"exit code {code}"
