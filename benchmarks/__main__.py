"""`make bench`: run every benchmark script in this folder at its default (small) scale.

A benchmark is any `benchmarks/NAME.py` with a `main()`, except the helpers listed in `HELPERS`;
each runs as `python -m benchmarks.NAME` in its own process, so its peak memory is its own.
Larger runs are opt-in, for example `MOVIEAGENT_BENCH_RATINGS=25000000 make bench`: the
import benchmark and the tool latency benchmark then also import a generated 25M-rating release
(written once, cached in `$MOVIEAGENT_BENCH_DIR`; see `import_bench.py`, `tool_latency.py`).
Exits non-zero if any benchmark fails.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from movieagent.stop_signals import StoppedBySignal, stop_like_ctrl_c

HERE = Path(__file__).resolve().parent
# agent_loop is the measurement that agent_overhead runs (and adds peak memory to)
HELPERS = {"__init__", "__main__", "generate_movielens", "agent_loop"}
FIRST = ["import_bench"]  # the others read the graph the import makes
STOP_GRACE_S = 30.0  # for a stopped benchmark to close its graph


def discover() -> list[str]:
    names = sorted(
        p.stem
        for p in HERE.glob("*.py")
        if p.stem not in HELPERS and "def main(" in p.read_text(encoding="utf-8")
    )
    return [n for n in FIRST if n in names] + [n for n in names if n not in FIRST]


def run_one(name: str) -> int:
    """Run `benchmarks.NAME` and return its exit code. Stopped by SIGTERM, the benchmark is
    stopped the same way and waited for (as it is on Ctrl-C, which reaches it from the
    terminal): killed, it would leave the graph server it started running."""
    child = subprocess.Popen([sys.executable, "-m", f"benchmarks.{name}"], cwd=HERE.parent)
    try:
        return child.wait()
    except KeyboardInterrupt as stop:
        if isinstance(stop, StoppedBySignal):  # Ctrl-C reached the child from the terminal
            child.send_signal(stop.signum)
        try:
            child.wait(timeout=STOP_GRACE_S)
        finally:
            if child.poll() is None:
                child.kill()
        raise


def main() -> None:
    stop_like_ctrl_c()
    failed = []
    for name in discover():
        print(f"\n### benchmarks.{name}", flush=True)
        if run_one(name):
            failed.append(name)
    if failed:
        sys.exit(f"failed: {', '.join(failed)}")


if __name__ == "__main__":
    main()
