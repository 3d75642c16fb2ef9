"""How long the `movieagent` command takes, each run in a new process (what a user waits for).

    python -m benchmarks.cli_startup                 # ml-latest-small + enriched, imported first
    python -m benchmarks.cli_startup --data-dir DIR  # a graph already imported
    python -m benchmarks.cli_startup --runs 9

Medians (with the fastest and slowest run) of:
- `movieagent --help` (target 0.5 s);
- `movieagent tool film_facts --args '{"entity": "Heat"}'`, cold: no other process holds the
  graph, so the command starts the data directory's `redis-server`, which loads the graph, and
  shuts it down at the end (target 3 s);
- the same, warm: another process holds the graph open, as the app does, and the command
  attaches to that server and leaves it running (target 1.5 s).
The load average is printed too: on a shared machine every figure grows with it.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from benchmarks.import_bench import ENRICHED, ML_SMALL, REPO
from benchmarks.tool_latency import imported
from movieagent.stop_signals import stop_like_ctrl_c

HELP = ["--help"]
TOOL = ["tool", "film_facts", "--args", '{"entity": "Heat"}']
TARGETS_S = {"--help": 0.5, "tool, cold": 3.0, "tool, warm": 1.5}
# Holds the graph open until its stdin closes, as the app's process does.
HOLDER = (
    "import sys\n"
    "from semantic_layer.graph import connect\n"
    "with connect():\n"
    "    print('ready', flush=True)\n"
    "    sys.stdin.read()\n"
)


def seconds(args: list[str], env: dict[str, str]) -> float:
    """Wall time of `movieagent ARGS` in a new process; exits if the command fails."""
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "movieagent", *args], cwd=REPO, env=env, capture_output=True
    )
    took = time.perf_counter() - started
    if done.returncode:
        raise SystemExit(f"movieagent {' '.join(args)} failed:\n{done.stderr.decode()[-2000:]}")
    return took


@contextmanager
def graph_held(env: dict[str, str]) -> Iterator[None]:
    """Another process with the graph open for the duration of the block."""
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER],
        cwd=REPO,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdin is not None and holder.stdout is not None
    try:
        if holder.stdout.readline().strip() != "ready":
            raise SystemExit("the process that holds the graph did not start")
        yield
    finally:
        holder.stdin.close()
        holder.wait(timeout=60)


def measure(data_dir: Path, runs: int) -> dict[str, list[float]]:
    env = {**os.environ, "MOVIEAGENT_DATA_DIR": str(data_dir)}
    env.pop("NEO4J_URI", None)
    seconds(TOOL, env)  # the operating system's file cache holds the code and the graph file
    times = {
        "--help": [seconds(HELP, env) for _ in range(runs)],
        "tool, cold": [seconds(TOOL, env) for _ in range(runs)],
    }
    with graph_held(env):
        times["tool, warm"] = [seconds(TOOL, env) for _ in range(runs)]
    return times


def report(times: dict[str, list[float]]) -> None:
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    print(f"{'command':<12} {'median':>8} {'fastest':>8} {'slowest':>8} {'target':>8}")
    for name, runs in times.items():
        print(
            f"{name:<12} {statistics.median(runs):>7.2f}s {min(runs):>7.2f}s {max(runs):>7.2f}s "
            f"{TARGETS_S[name]:>7.1f}s"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data-dir", type=Path, help="a data directory with a graph imported")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    if args.data_dir is not None:
        report(measure(args.data_dir, args.runs))
        return
    if not (ML_SMALL / "ratings.csv").is_file():
        raise SystemExit(f"MovieLens not found at {ML_SMALL}: pass --data-dir DIR")
    with imported(ML_SMALL, ENRICHED if ENRICHED.is_file() else None) as settings:
        report(measure(settings.data_dir, args.runs))


if __name__ == "__main__":
    stop_like_ctrl_c()  # SIGTERM unwinds as Ctrl-C: the graph server it started stops
    main()
