"""Recommendation quality offline: our recommender tool against strong references, same run.

    python -m benchmarks.rec_quality                       # ml-latest-small (part of make bench)
    python -m benchmarks.rec_quality --source DIR --json out.json --plot out.png
    python -m benchmarks.rec_quality --test-share 0.1     # a second split, to check a choice
    python -m benchmarks.rec_quality --split random --like 3.5 --ease-lambdas 50,200,1000

Protocols a reviewer may pick instead of the default: `--test-share`, `--split random` (a
seeded random holdout per user) or `--split last-one` (leave-last-one-out), `--like 3.5` (the
threshold of relevant test ratings and of the references' likes); `--ease-lambdas` computes
EASE for each lambda and names the best of the run (tuned on the test split itself: the
strongest EASE a reviewer could show). Every table is also printed for users with few and many
train ratings (`rec_protocol.activity_groups`).

The protocol is in `rec_protocol` (temporal split per user, top-10 metrics). The train split is
written as a MovieLens-shaped directory and imported by our own import into a new temporary data
directory; then our `recommender` tool is called as the agent calls it, for each evaluated user:

- personal: no arguments, the session being that user;
- by movie: `movies` = [the user's last liked train movie (as "Title (year)")], the session being
  that user (so their train ratings are left out); relevant = their liked test movies.

The references (`rec_reference`) are computed from the same train split in the same run, so
what matters is the ratio, on one machine. Writes JSON (default `benchmarks/results/
rec_quality.json`) and, with matplotlib, a bar chart beside it.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks import rec_reference
from benchmarks.import_bench import ML_SMALL, REPO
from benchmarks.rec_protocol import (
    LIKE,
    SPLITS,
    TEST_SHARE,
    Protocol,
    Split,
    activity_groups,
    metrics,
    split_ratings,
    write_release,
)
from benchmarks.tool_latency import warm_neighbours
from data_import import readers
from data_import.importer import ImportOptions, import_release
from data_import.problems import Problems
from data_import.rating_arrays import read_ratings
from movieagent.stop_signals import stop_like_ctrl_c
from semantic_layer.graph import Graph, connect
from semantic_layer.session import Session
from semantic_layer.settings import GraphSettings
from semantic_layer.tools import ToolContext, build_tools
from semantic_layer.tools.payloads import Recommendations

OURS = "our recommender tool"
RESULTS = REPO / "benchmarks" / "results" / "rec_quality.json"


def run_tool(graph: Graph, split: Split, labels: dict[int, str]) -> dict[str, Any]:
    """Top-10 lists from the recommender tool, personal and by movie, with timings."""
    personal: dict[int, list[int]] = {}
    by_movie: dict[int, list[int]] = {}
    timings: dict[str, list[float]] = {"personal": [], "by movie": []}
    unresolved = 0
    tool = next(t for t in build_tools() if t.name == "recommender")
    warm_neighbours(graph)
    for user in split.users:
        context = ToolContext(graph, Session(user_id=user))
        for case, arguments, lists in (
            ("personal", {}, personal),
            ("by movie", {"movies": [labels[split.anchor[user]]]}, by_movie),
        ):
            started = time.perf_counter()
            result = tool.run(arguments, context)
            timings[case].append((time.perf_counter() - started) * 1000)
            data = result.data if isinstance(result.data, Recommendations) else None
            lists[user] = [r.movie_id for r in data.recommendations] if data else []
            if case == "by movie" and (data is None or data.basis.movie_id != split.anchor[user]):
                unresolved += 1
    return {
        "personal": personal,
        "by movie": by_movie,
        "unresolved_anchors": unresolved,
        "latency_ms": {case: _percentiles(t) for case, t in timings.items()},
    }


def _percentiles(timings: list[float]) -> dict[str, float]:
    ordered = sorted(timings)
    return {
        "calls": len(ordered),
        "p50": round(statistics.median(ordered), 2),
        "p95": round(ordered[max(0, int(len(ordered) * 0.95) - 1)], 2),
    }


def evaluate(
    source: Path,
    protocol: Protocol | None = None,
    lambdas: tuple[float, ...] = (rec_reference.LAMBDA,),
) -> dict[str, Any]:
    protocol = protocol or Protocol()
    problems = Problems()
    split = split_ratings(read_ratings(source / "ratings.csv", problems), protocol)
    catalogue = sum(1 for _ in readers.read_rows(source / "movies.csv", readers.MOVIES, problems))
    print(f"{len(split.users)} users evaluated, {catalogue:,} movies", file=sys.stderr)
    with tempfile.TemporaryDirectory(prefix="movieagent-recq-") as tmp:
        release = write_release(split.train, source / "movies.csv", Path(tmp) / "train")
        settings = GraphSettings.from_env({"MOVIEAGENT_DATA_DIR": str(Path(tmp) / "data")})
        with connect(settings) as graph:
            started = time.perf_counter()
            report = import_release(graph, release, None, ImportOptions(show_progress=False))
            imported = round(time.perf_counter() - started, 1)
            print(f"train split imported in {imported} s", file=sys.stderr)
            labels = _labels(graph, split)
            ours = run_tool(graph, split, labels)
    data = rec_reference.train_likes(split)
    references = {
        "personal": rec_reference.personal(data, split, lambdas),
        "by movie": rec_reference.by_movie(data, split),
    }
    tables: dict[str, dict[str, dict[str, float]]] = {}
    groups: dict[str, dict[str, dict[str, dict[str, float]]]] = {}
    for case in ("personal", "by movie"):
        methods = {**references[case], OURS: ours[case]}
        tables[case] = {name: metrics(lists, split.relevant, catalogue)
                        for name, lists in methods.items()}  # fmt: skip
        groups[case] = {
            group: {name: metrics({u: lists.get(u, []) for u in users},
                                  {u: split.relevant[u] for u in users}, catalogue)
                    for name, lists in methods.items()}
            for group, users in activity_groups(split).items() if users
        }  # fmt: skip
    ease_runs = {n: m for n, m in tables["personal"].items() if n.startswith("EASE")}
    return {
        "source": str(source),
        "protocol": protocol.describe(),
        "split": protocol.split,
        "test_share": protocol.test_share,
        "like": protocol.like,
        "best_ease": max(ease_runs, key=lambda n: ease_runs[n]["ndcg@10"]),
        "groups": {g: len(u) for g, u in activity_groups(split).items()},
        "users": len(split.users),
        "catalogue": catalogue,
        "import_s": imported,
        "derived": report.derived,
        "unresolved_anchors": ours["unresolved_anchors"],
        "latency_ms": ours["latency_ms"],
        "metrics": tables,
        "metrics_by_group": groups,
    }


def _labels(graph: Graph, split: Split) -> dict[int, str]:
    rows = graph.read("bench/movie_labels", {"movieIds": sorted(set(split.anchor.values()))})
    return {r["movieId"]: f"{r['title']} ({r['year']})" if r["year"] else r["title"] for r in rows}


def print_table(result: dict[str, Any]) -> None:
    for case, table in result["metrics"].items():
        print(f"\n{case} ({result['users']} users, {result['protocol']}, top 10 without "
              "train-rated movies)")  # fmt: skip
        _print_rows(table)
    print(f"\nbest EASE of the run: {result['best_ease']}")
    for case, groups in result["metrics_by_group"].items():
        for group, table in groups.items():
            ease = {n: m for n, m in table.items() if n.startswith("EASE")}
            if case == "personal":
                best = max(ease, key=lambda n: ease[n]["ndcg@10"])
                table = {n: m for n, m in table.items()
                         if n in (OURS, best, "most liked", result["best_ease"])}  # fmt: skip
            print(f"\n{case}, {group} ({result['groups'][group]} users)")
            _print_rows(table)
    latency = ", ".join(f"{c} p50 {v['p50']} ms, p95 {v['p95']} ms"
                        for c, v in result["latency_ms"].items())  # fmt: skip
    print(f"\n{OURS}: {latency}; import of the train split {result['import_s']} s; "
          f"anchors not resolved to their movie: {result['unresolved_anchors']}")  # fmt: skip


def _print_rows(table: dict[str, dict[str, float]]) -> None:
    head = f"{'method':36} {'nDCG@10':>8} {'Recall@10':>10} {'HR@10':>6} {'coverage':>9}"
    print(head + "\n" + "-" * len(head))
    for name, m in table.items():
        print(f"{name:36} {m['ndcg@10']:>8.4f} {m['recall@10']:>10.4f} {m['hr@10']:>6.3f} "
              f"{m['coverage']:>8.1%}")  # fmt: skip


def plot(result: dict[str, Any], path: Path) -> bool:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    figure, axes = plt.subplots(1, 2, figsize=(11, 4))
    for axis, (case, table) in zip(axes, result["metrics"].items(), strict=True):
        names = list(table)
        axis.barh(names, [table[n]["ndcg@10"] for n in names])
        axis.set_title(f"{case}: nDCG@10")
        axis.invert_yaxis()
    figure.tight_layout()
    figure.savefig(path)
    return True


def main(argv: list[str] | None = None) -> dict[str, Any] | None:
    parser = argparse.ArgumentParser(description="Offline recommendation quality.")
    parser.add_argument("--source", type=Path, default=ML_SMALL, help="a MovieLens release")
    parser.add_argument("--json", type=Path, default=RESULTS, help=f"default {RESULTS}")
    parser.add_argument("--plot", type=Path, help="bar chart (default: beside the JSON)")
    parser.add_argument("--test-share", type=float, default=TEST_SHARE,
                        help=f"share of each user's latest ratings held out (default {TEST_SHARE}; "
                        "another value checks a second split)")  # fmt: skip
    parser.add_argument("--split", choices=SPLITS, default="temporal",
                        help="temporal (default): each user's latest ratings are test; random: "
                        "a random share per user; last-one: each user's latest rating")  # fmt: skip
    parser.add_argument("--like", type=float, default=LIKE,
                        help=f"relevant test ratings and reference likes: >= this (default "
                        f"{LIKE:g})")  # fmt: skip
    parser.add_argument("--seed", type=int, default=0, help="random split only (default 0)")
    parser.add_argument("--ease-lambdas", default=f"{rec_reference.LAMBDA:g}",
                        help="EASE references, comma-separated lambdas (default "
                        f"{rec_reference.LAMBDA:g}); the best of the run is named")  # fmt: skip
    args = parser.parse_args(argv)
    try:
        protocol = Protocol(args.split, args.test_share, args.like, args.seed)
        lambdas = tuple(float(v) for v in args.ease_lambdas.split(","))
    except ValueError as e:
        parser.error(str(e))
    if not (args.source / "ratings.csv").is_file():
        print(f"no ratings.csv in {args.source}: skipped", file=sys.stderr)
        return None
    result = evaluate(args.source, protocol, lambdas)
    print_table(result)
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(result, indent=2))
    chart = args.plot or args.json.with_suffix(".png")
    print(f"JSON: {args.json}" + (f", chart: {chart}" if plot(result, chart) else ""))
    return result


if __name__ == "__main__":
    stop_like_ctrl_c()  # SIGTERM unwinds as Ctrl-C: the graph server it started stops
    main()
