"""p50/p95 latency of every tool over an imported graph, by calling the tools directly.

    python -m benchmarks.tool_latency                          # ml-latest-small + enriched
    MOVIEAGENT_BENCH_RATINGS=25000000 make bench               # plus a generated 25M graph
    python -m benchmarks.tool_latency --generated 25000000     # the same, this benchmark only
    python -m benchmarks.tool_latency --data-dir DIR [--graph NAME]  # a graph already imported

Without `--data-dir`/`--graph`, each release is imported (`movieagent import`, in its own
process) into a new temporary data directory that is removed afterwards; a generated release
is written once and cached in `$MOVIEAGENT_BENCH_DIR` (see `import_bench.py`). Inputs are
chosen for the worst case as well as the typical one: the most rated movies (largest
collaborative neighbourhoods), every n-th movie, prolific directors, every n-th user and,
apart, the 10 heaviest raters (`recommender(heavy user)`: the most seeds to choose from and the
most rated movies to leave out).
Only read tools are measured; Memory writes are left out so the graph is not changed. A case
with no inputs in the graph (people on a generated release, which has no enrichment file) is
skipped with the reason printed.
Targets: p95 under 20 ms on ml-latest-small, under 100 ms at 25M ratings; for the
recommender, whatever the combination of its arguments (`recommender(any
combination)` draws them as `rec_constraints` does): 30 ms and 200 ms. `--check` exits non-zero
when a case misses its target.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from itertools import pairwise
from pathlib import Path
from typing import Any

from benchmarks.import_bench import ENRICHED, ML_SMALL, REPO, generated_release
from benchmarks.rec_requests import draw
from movieagent.stop_signals import stop_like_ctrl_c
from semantic_layer.graph import Graph, connect
from semantic_layer.recommend.neighbour_cache import SHARED
from semantic_layer.session import GUEST_USER_ID, Session
from semantic_layer.settings import GraphSettings
from semantic_layer.tools import ToolContext, build_tools

SAMPLE = 40
SMALL_RATINGS = 1_000_000  # graphs up to this many ratings are held to the small target
TARGET_SMALL_MS = 20.0
TARGET_LARGE_MS = 100.0
RECOMMENDER_SMALL_MS = 30.0  # the recommender, any combination of its arguments
RECOMMENDER_LARGE_MS = 200.0
NO_PEOPLE = "no Person nodes in this graph (a generated release has no enrichment file)"
Calls = list[tuple[int, dict[str, Any]]]


def workload(graph: Graph) -> tuple[dict[str, Calls], dict[str, str]]:
    """(user id, arguments) per measured case, and the reason for each case left out."""

    def label(row: dict[str, Any]) -> str:
        return f"{row['title']} ({row['year']})" if row["year"] else row["title"]

    popular = [label(r) for r in graph.read("bench/popular_movies", {"limit": SAMPLE // 2})]
    spread = [label(r) for r in graph.read("bench/sample_movies", {"step": 7, "limit": SAMPLE})]
    movies = popular + spread[: SAMPLE // 2]
    people = graph.read("bench/person_count")[0]["people"]
    directors = [r["name"] for r in graph.read("bench/directors", {"limit": SAMPLE})]
    users = [r["userId"] for r in graph.read("bench/heavy_users", {"limit": SAMPLE // 4})]
    sampled = [r["userId"] for r in graph.read("bench/sample_users", {"step": 7, "limit": SAMPLE})]
    genres = ["Drama", "Comedy", "Action", "Thriller", "Film-Noir", "Sci-Fi", "Horror", "War"]
    guest = GUEST_USER_ID
    heavy = users[0] if users else guest
    rng = random.Random(0)
    pools = {"movies": movies, "people": directors, "users": sampled}
    cases: dict[str, Calls] = {
        "recommender(movies)": [(heavy, {"movies": [m]}) for m in movies],
        "recommender(2 movies)": [(heavy, {"movies": [a, b]}) for a, b in pairwise(movies)],
        "recommender(genres)": [(heavy, {"genres": [g]}) for g in genres],
        "recommender(guest, genres)": [(guest, {"genres": [g]}) for g in genres],
        "recommender(movies, genres)": [
            (heavy, {"movies": [m], "genres": [genres[i % len(genres)]]})
            for i, m in enumerate(movies)
        ],
        "recommender(user)": [(u, {}) for u in sampled],
        "recommender(heavy user)": [(u, {}) for u in users],
        "recommender(user, genres, years)": [
            (u, {"genres": [genres[i % len(genres)]], "year_from": 1990, "year_to": 1999})
            for i, u in enumerate(sampled)
        ],
        "recommender(people, years)": [
            (
                heavy,
                {"people": [d], "year_from": 1980 + 10 * (i % 4), "year_to": 1989 + 10 * (i % 4)},
            )
            for i, d in enumerate(directors)
        ],
        "recommender(any combination)": [draw(rng, pools) for _ in range(SAMPLE * 2)],
        "film_facts(movie)": [(heavy, {"entity": m}) for m in movies],
        "film_facts(person)": [(guest, {"entity": d, "entity_type": "person"}) for d in directors],
        "film_facts(misspelled)": [(guest, {"entity": m[:-8] + "x"}) for m in popular],
        "smalltalk": [(guest, {"query": "hi"})] * 10,
        "top_movies_by_director": [(guest, {"director": d}) for d in directors],
        "movies_together": [
            (guest, {"first_person": a, "second_person": b}) for a, b in pairwise(directors)
        ],
        "most_tagged": [
            (guest, {"tag": t}) for t in ("funny", "twist ending", "pixar", "atmospheric")
        ],
    }
    skipped: dict[str, str] = {}
    for case, calls in list(cases.items()):
        if not calls:
            skipped[case] = NO_PEOPLE if not people else "no inputs for it in this graph"
            del cases[case]
    return cases, skipped


def measure(graph: Graph, rounds: int) -> tuple[dict[str, dict[str, float]], dict[str, str]]:
    cases, skipped = workload(graph)
    tools = {t.name: t for t in build_tools()}

    def tool_for(user_id: int, case: str) -> Callable[[dict[str, Any]], Any]:
        context = ToolContext(graph, Session(user_id=user_id))
        return partial(tools[case.split("(")[0]].run, ctx=context)

    figures: dict[str, dict[str, float]] = {}
    for case, calls in cases.items():
        timings: list[float] = []
        for _ in range(rounds):
            for user_id, arguments in calls:
                run = tool_for(user_id, case)
                start = time.perf_counter()
                run(arguments)
                timings.append((time.perf_counter() - start) * 1000)
        timings.sort()
        figures[case] = {
            "calls": len(timings),
            "p50_ms": round(statistics.median(timings), 2),
            "p95_ms": round(timings[max(0, int(len(timings) * 0.95) - 1)], 2),
            "max_ms": round(timings[-1], 2),
        }
    return figures, skipped


def bench_graph(graph: Graph, rounds: int, target_ms: float | None) -> dict[str, Any]:
    """Figures for one graph, each case marked against the target for the graph's size."""
    _wait_for_indexes(graph)
    ratings = graph.read("bench/rating_total")[0]["ratings"]
    small = ratings <= SMALL_RATINGS
    warm_neighbours(graph)
    figures, skipped = measure(graph, rounds)
    for case, f in figures.items():
        if case.startswith("recommender("):
            target = target_ms or (RECOMMENDER_SMALL_MS if small else RECOMMENDER_LARGE_MS)
        else:
            target = target_ms or (TARGET_SMALL_MS if small else TARGET_LARGE_MS)
        f["target_ms"] = target
        f["ok"] = f["p95_ms"] <= target
    return {"graph": graph.describe(), "ratings": ratings, "tools": figures, "skipped": skipped}


def warm_neighbours(graph: Graph) -> None:
    """Load the recommender's in-memory neighbourhoods first, as an application does at its
    start (`NeighbourCache.warm_in_background`), and say what it cost."""
    started = time.perf_counter()
    neighbours = SHARED.warm(graph)
    took = time.perf_counter() - started
    if neighbours is None:
        print(
            "neighbourhoods not in memory (no SIMILAR edges, or the load failed)", file=sys.stderr
        )
    else:
        print(f"neighbourhoods in memory: {neighbours.edges:,} edges of "
              f"{len(neighbours.movie_ids):,} movies, loaded in {took:.1f} s",
              file=sys.stderr, flush=True)  # fmt: skip


def _wait_for_indexes(graph: Graph, timeout_s: float = 600.0) -> None:
    """Databases build indexes in the background after a bulk load; resolution needs them."""
    if pending := graph.wait_for_indexes(timeout_s):
        raise SystemExit(f"indexes not ready after {timeout_s:.0f} s: {', '.join(pending)}")


@contextmanager
def imported(release: Path, enrich: Path | None) -> Iterator[GraphSettings]:
    """A new temporary data directory holding `release`, imported by `movieagent import`."""
    with tempfile.TemporaryDirectory(prefix="movieagent-toolbench-") as data_dir:
        env = {**os.environ, "MOVIEAGENT_DATA_DIR": data_dir}
        env.pop("MOVIEAGENT_GRAPH", None)
        env.pop("MOVIEAGENT_NEO4J_URI", None)
        command = [sys.executable, "-m", "movieagent", "import", "--source", str(release)]
        if enrich:
            command += ["--enrich", str(enrich)]
        print(f"importing {release} ...", file=sys.stderr, flush=True)
        started = time.perf_counter()
        done = subprocess.run(command, cwd=REPO, env=env, capture_output=True, text=True)
        if done.returncode:
            raise SystemExit(f"import of {release} failed:\n{done.stderr[-4000:]}")
        print(f"imported in {time.perf_counter() - started:.0f} s", file=sys.stderr, flush=True)
        yield GraphSettings.from_env(env)


def scale_name(ratings: int) -> str:
    if ratings >= 1_000_000:
        return f"{ratings / 1_000_000:g}M ratings"
    return f"{ratings / 1000:.0f}k ratings"


def print_table(results: list[dict[str, Any]]) -> None:
    head = f"{'case':32} {'scale':>13} {'calls':>6} {'p50 ms':>8} {'p95 ms':>8} {'target':>8}"
    print("\n" + head + "  ok")
    print("-" * (len(head) + 4))
    for result in results:
        scale = scale_name(result["ratings"])
        for case, f in result["tools"].items():
            mark = "pass" if f["ok"] else "FAIL"
            print(
                f"{case:32} {scale:>13} {f['calls']:>6} {f['p50_ms']:>8.2f} {f['p95_ms']:>8.2f} "
                f"{'< ' + format(f['target_ms'], 'g'):>8}  {mark}"
            )
        for case, reason in result["skipped"].items():
            print(f"{case:32} {scale:>13} {'-':>6} {'-':>8} {'-':>8} {'':>8}  skipped: {reason}")
    print()


def main(argv: list[str] | None = None) -> list[dict[str, Any]]:
    parser = argparse.ArgumentParser(description="Tool latency p50/p95 over an imported graph.")
    parser.add_argument("--data-dir", type=Path, help="measure the graph in this data dir")
    parser.add_argument("--graph", help="graph name inside it (default: MOVIEAGENT_GRAPH)")
    parser.add_argument("--generated", type=int, metavar="RATINGS",
                        default=int(os.environ.get("MOVIEAGENT_BENCH_RATINGS", "0")),
                        help="without --data-dir: also a generated release of this many "
                        "ratings (default: $MOVIEAGENT_BENCH_RATINGS, else none)")  # fmt: skip
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--target-ms", type=float, help="p95 target (default: by graph size)")
    parser.add_argument("--check", action="store_true", help="exit 1 if a case misses target")
    parser.add_argument("--json", action="store_true", help="print JSON only")
    args = parser.parse_args(argv)

    results: list[dict[str, Any]] = []
    if args.data_dir or args.graph:
        env = dict(os.environ)
        if args.graph:
            env["MOVIEAGENT_GRAPH"] = args.graph
        with connect(GraphSettings.from_env(env, data_dir=args.data_dir)) as graph:
            results.append(bench_graph(graph, args.rounds, args.target_ms))
    else:
        releases: list[tuple[Path, Path | None]] = []
        if (ML_SMALL / "ratings.csv").is_file():
            releases.append((ML_SMALL, ENRICHED if ENRICHED.is_file() else None))
        else:
            print(f"ml-latest-small not found at {ML_SMALL}: skipped", file=sys.stderr)
        if args.generated:
            releases.append((generated_release(args.generated), None))
        for release, enrich in releases:
            with imported(release, enrich) as settings, connect(settings) as graph:
                results.append(bench_graph(graph, args.rounds, args.target_ms))
    if args.json:
        print(json.dumps(results, indent=2))
    else:
        for result in results:
            print(f"graph: {result['graph']}, {result['ratings']:,} ratings")
        print_table(results)
    if args.check and not all(f["ok"] for r in results for f in r["tools"].values()):
        sys.exit(1)
    return results


if __name__ == "__main__":
    stop_like_ctrl_c()  # SIGTERM unwinds as Ctrl-C: the graph server it started stops
    main()
