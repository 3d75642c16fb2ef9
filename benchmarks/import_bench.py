"""Import time per phase and peak memory, for ml-latest-small and a generated release.

    python -m benchmarks.import_bench                      # ml-latest-small + enriched
    python -m benchmarks.import_bench --generated 25000000 # plus a generated 25M-rating set
    MOVIEAGENT_BENCH_RATINGS=25000000 make bench           # the same through make

Each import runs in its own process into a new temporary data directory, so the peak memory
figures are its own: the Python process (`ru_maxrss`) and the embedded `redis-server`
(`VmHWM`, the kernel's peak resident size). A generated release is written once and cached in
`$MOVIEAGENT_BENCH_DIR` (default: the system temp folder).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from movieagent.stop_signals import stop_like_ctrl_c

REPO = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("MOVIEAGENT_SHARED_DATA", REPO.parent / "shared" / "data"))
ML_SMALL = SHARED / "movielens" / "ml-latest-small"
ENRICHED = SHARED / "movielens" / "enriched" / "movies.csv"
COUNT_TIMEOUT_MS = 600_000
BENCH_DIR = Path(os.environ.get("MOVIEAGENT_BENCH_DIR", tempfile.gettempdir()))


def generated_release(ratings: int, seed: int = 7) -> Path:
    """A MovieLens-shaped release with ml-25m's proportions, generated once and cached."""
    from benchmarks.generate_movielens import generate

    users = max(100, round(ratings * 162_000 / 25_000_000))
    movies = max(2_000, min(62_000, round(ratings * 62_000 / 25_000_000)))
    out = BENCH_DIR / f"movieagent-ml-gen-{ratings}-{users}-{movies}-{seed}"
    if not (out / "tags.csv").is_file():
        print(f"generating {ratings:,} ratings into {out} ...", file=sys.stderr)
        generate(out, ratings, users, movies, seed)
    return out


def run_one(
    release: Path, enrich: Path | None, bulk: bool | None, keep: Path | None = None
) -> dict[str, Any]:
    """Import into a new data directory in this process (`keep`: this one, left in place for
    other benchmarks); return times and peak memory."""
    from data_import.importer import ImportOptions, import_release
    from semantic_layer.graph import connect
    from semantic_layer.graph_stats import graph_stats
    from semantic_layer.settings import GraphSettings

    with tempfile.TemporaryDirectory(prefix="movieagent-bench-") as scratch:
        data_dir = str(keep) if keep else scratch
        # counting every edge of a 25M graph takes longer than the tools' 20 s limit
        timeout = os.environ.get("MOVIEAGENT_QUERY_TIMEOUT_MS", str(COUNT_TIMEOUT_MS))
        settings = GraphSettings.from_env(
            {
                "MOVIEAGENT_DATA_DIR": data_dir,
                "MOVIEAGENT_QUERY_TIMEOUT_MS": timeout,
            }
        )
        started = time.perf_counter()
        with connect(settings) as graph:
            connected = time.perf_counter()
            options = ImportOptions(show_progress=False, bulk=bulk)
            report = import_release(graph, release, enrich, options)
            imported = time.perf_counter()
            counts = graph_stats(graph)
            redis_peak = _peak_kib(graph.client.pid)  # type: ignore[attr-defined]
    return {
        "release": str(release),
        "enrich": str(enrich) if enrich else None,
        "phases": {p.name: round(p.seconds, 2) for p in report.phases},
        "phases_total_s": round(report.seconds, 2),
        "save_s": round(imported - connected - report.seconds, 2),
        "start_s": round(connected - started, 2),
        "wall_s": round(imported - started, 2),
        "peak_rss_mib": {
            "python": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
            "redis_server": round(redis_peak / 1024) if redis_peak else None,
        },
        "counts": counts,
        "derived": report.derived,
        "problems": report.problems.total,
    }


def _peak_kib(pid: int | None) -> int | None:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except (OSError, TypeError):
        return None
    for line in status.splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    return None


def _in_subprocess(case: dict[str, Any]) -> dict[str, Any]:
    command = [sys.executable, "-m", "benchmarks.import_bench", "--one", json.dumps(case)]
    done = subprocess.run(command, cwd=REPO, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"import bench failed:\n{done.stderr}")
    return json.loads(done.stdout)


def _print(name: str, result: dict[str, Any]) -> None:
    peak = result["peak_rss_mib"]
    print(f"\n== import: {name}")
    for phase, seconds in result["phases"].items():
        print(f"  {phase:<12}{seconds:>9.2f} s")
    print(f"  {'phases':<12}{result['phases_total_s']:>9.2f} s")
    print(f"  {'save':<12}{result['save_s']:>9.2f} s   (snapshot written after the import)")
    print(f"  {'wall':<12}{result['wall_s']:>9.2f} s   (start of the embedded server included)")
    print(f"  peak RSS: python {peak['python']:,} MiB, redis-server {peak['redis_server']:,} MiB")
    rels = result["counts"]["relationships"]
    print("  counts: " + ", ".join(f"{k} {v:,}" for k, v in
                                    {**result["counts"]["nodes"], **rels}.items()))  # fmt: skip
    if result["derived"]:
        d = result["derived"]
        print(f"  derived: exact={d['exact']}, capped users {d['capped_users']:,}, "
              f"likes left out {d['likes_left_out']:,}")  # fmt: skip


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Import time per phase and peak memory.")
    parser.add_argument("--generated", type=int, metavar="RATINGS",
                        default=int(os.environ.get("MOVIEAGENT_BENCH_RATINGS", "0")),
                        help="also import a generated release of this many ratings "
                        "(default: $MOVIEAGENT_BENCH_RATINGS, else none)")  # fmt: skip
    parser.add_argument("--merge", action="store_true",
                        help="also time ml-latest-small on the batched MERGE path")  # fmt: skip
    parser.add_argument("--json", type=Path, help="also write the results to this JSON file")
    parser.add_argument("--keep", type=Path, metavar="DIR",
                        help="import the generated release into this new data directory and "
                        "leave it there (e.g. for tool_latency --data-dir)")  # fmt: skip
    parser.add_argument("--one", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.one:
        case = json.loads(args.one)
        enrich_path = Path(case["enrich"]) if case["enrich"] else None
        keep = Path(case["keep"]) if case.get("keep") else None
        print(json.dumps(run_one(Path(case["release"]), enrich_path, case["bulk"], keep)))
        return

    cases: dict[str, dict[str, Any]] = {}
    if (ML_SMALL / "ratings.csv").is_file():
        enrich = str(ENRICHED) if ENRICHED.is_file() else None
        cases["ml-latest-small + enriched"] = {"release": str(ML_SMALL), "enrich": enrich,
                                               "bulk": None}  # fmt: skip
        if args.merge:
            cases["ml-latest-small + enriched, MERGE path"] = {
                "release": str(ML_SMALL), "enrich": enrich, "bulk": False}  # fmt: skip
    else:
        print(f"ml-latest-small not found at {ML_SMALL}: skipped", file=sys.stderr)
    if args.generated:
        release = generated_release(args.generated)
        cases[f"generated, {args.generated:,} ratings"] = {
            "release": str(release), "enrich": None, "bulk": None,
            "keep": str(args.keep) if args.keep else None}  # fmt: skip
    results = {}
    for name, case in cases.items():
        results[name] = _in_subprocess(case)
        _print(name, results[name])
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    stop_like_ctrl_c()  # SIGTERM unwinds as Ctrl-C: the graph server it started stops
    main()
