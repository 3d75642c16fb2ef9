"""What durability costs a Memory write: one rating, stored the way the memory tool stores it.

    python -m benchmarks.write_durability                   # ml-latest-small, 300 writes a mode
    python -m benchmarks.write_durability --data-dir DIR    # a graph already imported there

Modes, each on the same graph and server:
- `no-aof`: what the embedded graph did before writes were logged (memory only until a snapshot);
- `aof-everysec`: append-only file, fsync once a second (`MOVIEAGENT_FSYNC=everysec`: a crash
  of the server loses nothing acknowledged, a crash of the machine at most the last second);
- `aof-always`: fsync before every acknowledgement (the default);
- `save-each`: no append-only file, a `SAVE` of the whole graph after every write.
Prints p50/p95/mean per mode and the cost over `no-aof`.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks.import_bench import ENRICHED, ML_SMALL, REPO
from movieagent.stop_signals import stop_like_ctrl_c
from semantic_layer.graph import connect
from semantic_layer.settings import GraphSettings

MODES = ("no-aof", "aof-everysec", "aof-always", "save-each")
SAVE_EACH_WRITES = 50  # each one writes the whole graph: enough to see the cost


def measure(graph: Any, mode: str, writes: int) -> list[float]:
    client = graph.client
    client.config_set("appendonly", "no" if mode in ("no-aof", "save-each") else "yes")
    if mode.startswith("aof-"):
        client.config_set("appendfsync", mode.removeprefix("aof-"))
        graph._server.wait_for_rewrite()
    times = []
    for i in range(min(writes, SAVE_EACH_WRITES) if mode == "save-each" else writes):
        params = {"userId": 19_000_000, "movieId": [1, 2571, 318, 6][i % 4],
                  "rating": (i % 10 + 1) / 2, "timestamp": i}  # fmt: skip
        started = time.perf_counter()
        graph.write("memory/rate", params)
        if mode == "save-each":
            client.save()
        times.append((time.perf_counter() - started) * 1000)
    return times


def run(data_dir: Path, writes: int) -> None:
    settings = GraphSettings.from_env({"MOVIEAGENT_DATA_DIR": str(data_dir)})
    with connect(settings) as graph:
        rated = len(graph.read("test/all_ratings"))
        print(f"write_durability: {writes} Memory writes per mode ({SAVE_EACH_WRITES} for "
              f"save-each) on {rated:,} ratings "
              f"({settings.describe()})")  # fmt: skip
        base = None
        for mode in MODES:
            times = sorted(measure(graph, mode, writes))
            p50, mean = statistics.median(times), statistics.fmean(times)
            p95 = times[int(0.95 * (len(times) - 1))]
            base = base or p50
            print(f"  {mode:<13} p50 {p50:7.2f} ms  p95 {p95:7.2f} ms  mean {mean:7.2f} ms  "
                  f"p50 x{p50 / base:.1f}")  # fmt: skip
        for movie in (1, 2571, 318, 6):
            graph.write("memory/forget", {"userId": 19_000_000, "movieId": movie})
        graph._server.make_durable()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--writes", type=int, default=300)
    parser.add_argument("--data-dir", type=Path, help="a data directory with a graph imported")
    args = parser.parse_args(argv)
    if args.data_dir:
        run(args.data_dir, args.writes)
        return
    with tempfile.TemporaryDirectory(prefix="movieagent-durability-") as folder:
        env = {"MOVIEAGENT_DATA_DIR": folder}
        subprocess.run(
            [sys.executable, "-m", "movieagent.cli", "import", "--source", str(ML_SMALL),
             "--enrich", str(ENRICHED), "--json"],
            cwd=REPO, env={**os.environ, **env}, check=True,
            stdout=subprocess.DEVNULL,
        )  # fmt: skip
        run(Path(folder), args.writes)


if __name__ == "__main__":
    stop_like_ctrl_c()  # SIGTERM unwinds as Ctrl-C: the graph server it started stops
    main()
