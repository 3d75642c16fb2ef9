"""One owner at a time for the embedded database's data directory.

Every process of the project that opens the embedded graph takes this lock (an exclusive
`flock` on `<data dir>/movieagent.db.lock`) for a moment: to start the one `redis-server` of the
directory or attach to the one that runs, and again to shut it down when it is the last client.
So two processes starting at once never run two servers on the same file. A bulk import holds
the lock for its whole run; other processes wait for it (`wait_s`), then get a sentence.

The lock is re-entrant inside a process (threads and nested users share it); the file names the
holder (pid and purpose) so a waiting process can say who it waits for.
"""

from __future__ import annotations

import fcntl
import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from semantic_layer.errors import GraphUnavailableError

LOCK_FILE = "movieagent.db.lock"
POLL_S = 0.05


class _Held:
    def __init__(self) -> None:
        self.thread_lock = threading.RLock()
        self.depth = 0
        self.fd: int | None = None


_held: dict[Path, _Held] = {}
_held_guard = threading.Lock()


def _state(path: Path) -> _Held:
    with _held_guard:
        return _held.setdefault(path, _Held())


def holder(data_dir: Path) -> str:
    """Who holds (or last held) the lock, as written in the lock file; '' when unknown."""
    try:
        return (data_dir / LOCK_FILE).read_text(encoding="utf-8").strip()
    except OSError:
        return ""


@contextmanager
def data_dir_lock(data_dir: Path, purpose: str, wait_s: float = 60.0) -> Iterator[None]:
    """Hold the data directory's lock; raise `GraphUnavailableError` after `wait_s` seconds."""
    data_dir.mkdir(parents=True, exist_ok=True)
    path = (data_dir / LOCK_FILE).resolve()
    state = _state(path)
    if not state.thread_lock.acquire(timeout=wait_s):
        raise _busy(data_dir, wait_s)
    try:
        if state.depth == 0:
            state.fd = _acquire(path, data_dir, purpose, wait_s)
        state.depth += 1
        try:
            yield
        finally:
            state.depth -= 1
            if state.depth == 0 and state.fd is not None:
                fcntl.flock(state.fd, fcntl.LOCK_UN)
                os.close(state.fd)
                state.fd = None
    finally:
        state.thread_lock.release()


def _acquire(path: Path, data_dir: Path, purpose: str, wait_s: float) -> int:
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    deadline = time.monotonic() + wait_s
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            break
        except BlockingIOError:
            if time.monotonic() >= deadline:
                os.close(fd)
                raise _busy(data_dir, wait_s) from None
            time.sleep(POLL_S)
    os.ftruncate(fd, 0)
    os.pwrite(fd, f"pid {os.getpid()}: {purpose}\n".encode(), 0)
    return fd


def _busy(data_dir: Path, wait_s: float) -> GraphUnavailableError:
    who = holder(data_dir) or "another process"
    return GraphUnavailableError(
        f"The embedded graph in {data_dir} is busy ({who}) and stayed busy for {wait_s:.0f} s: "
        "try again when that has finished (an import can take minutes)."
    )
