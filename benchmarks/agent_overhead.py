"""Agent overhead per turn with an instant scripted model, plus peak memory.

    python benchmarks/agent_overhead.py [--turns 300]

The measurement itself is the agent's own benchmark (`benchmarks.agent_loop`: loop time beyond the
tools' own time, p50/p95, prompt tokens per call, LLM calls per question); this script runs it
for `make bench` and adds the peak Python memory the run allocated (tracemalloc). Target: p95
under 50 ms.
"""

from __future__ import annotations

import argparse
import json
import tracemalloc
from typing import Any

from movieagent.stop_signals import stop_like_ctrl_c

TARGET_P95_MS = 50.0


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--turns", type=int, default=300)
    args = parser.parse_args(argv)

    from benchmarks.agent_loop import main as measure

    tracemalloc.start()
    figures: dict[str, Any] = dict(measure(args.turns))
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    figures["peak_memory_mib"] = round(peak / 2**20, 2)
    figures["target_p95_ms"] = TARGET_P95_MS
    figures["within_target"] = figures["overhead_ms_p95"] < TARGET_P95_MS
    print(json.dumps(figures, indent=2))
    return figures


if __name__ == "__main__":
    stop_like_ctrl_c()  # SIGTERM unwinds as Ctrl-C: the graph server it started stops
    main()
