"""The recommender's targets, all in one run: constraints kept, ranking quality, coverage, speed.

    python -m benchmarks.rec_acceptance                  # ml-latest-small + enriched
    python -m benchmarks.rec_acceptance --requests 500 --check

In one process, one after the other:

1. `rec_constraints` on ml-latest-small (imported with the enriched movie list into a new
   temporary data directory): random constraint requests, every returned movie checked;
2. `rec_quality` on the same release: the temporal 80/20 split, our tool against EASE;
3. a table of the targets: 100 % of returned movies satisfy their constraints, personal nDCG@10
   at least the best EASE of the run, catalogue coverage of the personal top-10 lists at least
   12 %, and the recommender's p95 over the constraint requests at most 30 ms.

`--check` exits non-zero when a target is missed. Timings are taken on whatever else the machine
runs: note the load average printed with them.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from benchmarks import rec_constraints, rec_quality
from benchmarks.import_bench import ENRICHED, ML_SMALL
from benchmarks.tool_latency import imported
from movieagent.stop_signals import stop_like_ctrl_c
from semantic_layer.graph import connect

COVERAGE_TARGET = 0.12
P95_TARGET_MS = 30.0


def targets(constraints: dict[str, Any], quality: dict[str, Any]) -> list[dict[str, Any]]:
    """One row per target: what it is, the figure of this run, the bar, whether it holds."""
    personal = quality["metrics"]["personal"]
    ours = personal[rec_quality.OURS]
    ease_name = quality["best_ease"]
    ease = personal[ease_name]
    p95 = constraints["latency_ms"]["p95"]
    return [
        {"target": "returned movies satisfying their constraints",
         "figure": f"{constraints['satisfied_share']:.1%}", "bar": "100 %",
         "ok": constraints["movies_satisfying"] == constraints["movies_returned"]},
        {"target": "personal nDCG@10 against the best EASE of the run",
         "figure": f"{ours['ndcg@10']:.4f} vs {ease['ndcg@10']:.4f} ({ease_name})",
         "bar": ">= EASE", "ok": ours["ndcg@10"] >= ease["ndcg@10"]},
        {"target": "catalogue coverage of the personal top-10 lists",
         "figure": f"{ours['coverage']:.1%}", "bar": f">= {COVERAGE_TARGET:.0%}",
         "ok": ours["coverage"] >= COVERAGE_TARGET},
        {"target": "recommender p95 over the constraint requests",
         "figure": f"{p95} ms", "bar": f"<= {P95_TARGET_MS:g} ms", "ok": p95 <= P95_TARGET_MS},
    ]  # fmt: skip


def print_targets(rows: list[dict[str, Any]]) -> None:
    width = max(len(r["target"]) for r in rows)
    print(f"\n{'target':{width}}  {'this run':32} {'bar':10} ok")
    for row in rows:
        mark = "pass" if row["ok"] else "FAIL"
        print(f"{row['target']:{width}}  {row['figure']:32} {row['bar']:10} {mark}")
    print(f"load average: {', '.join(f'{v:.2f}' for v in os.getloadavg())}")


def main(argv: list[str] | None = None) -> dict[str, Any] | None:
    parser = argparse.ArgumentParser(description="The recommender's targets in one run.")
    parser.add_argument("--requests", type=int, default=rec_constraints.REQUESTS)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", type=Path, help="also write the figures here")
    parser.add_argument("--check", action="store_true", help="exit 1 when a target is missed")
    args = parser.parse_args(argv)
    if not (ML_SMALL / "ratings.csv").is_file():
        print(f"ml-latest-small not found at {ML_SMALL}: skipped", file=sys.stderr)
        return None
    enrich = ENRICHED if ENRICHED.is_file() else None
    with imported(ML_SMALL, enrich) as settings, connect(settings) as graph:
        constraints = rec_constraints.run(graph, args.requests, args.seed)
    rec_constraints.print_report(constraints)
    quality = rec_quality.evaluate(ML_SMALL)
    rec_quality.print_table(quality)
    rows = targets(constraints, quality)
    print_targets(rows)
    result = {"constraints": constraints, "quality": quality, "targets": rows}
    if args.json:
        args.json.write_text(json.dumps(result, indent=2))
    if args.check and not all(r["ok"] for r in rows):
        sys.exit(1)
    return result


if __name__ == "__main__":
    stop_like_ctrl_c()  # SIGTERM unwinds as Ctrl-C: the graph server it started stops
    main()
