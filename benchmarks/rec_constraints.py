"""Constraint benchmark: random requests to the recommender, each result checked against them.

    python -m benchmarks.rec_constraints                      # ml-latest-small + enriched, 300
    python -m benchmarks.rec_constraints --requests 500 --seed 1
    python -m benchmarks.rec_constraints --data-dir DIR [--graph NAME]   # a graph already imported

Each request draws, over the real graph, a user (a guest or a MovieLens user), and at random:
0-2 movies to be like (well-known and spread ones), 0-2 genres, 0-1 excluded genre, 0-1 person
(a prolific actor or director), a year range (a decade, a span, or one open end), a popularity
and a limit. Every returned movie is checked, from the graph's own data, against the
constraints as asked, or as loosened when the result says so (the loosening must be one the
tool states): genres, exclusions, people, years, popularity band, never a movie the user rated,
never a named movie. Prints the share of movies that satisfy them (the target: 100 %), how many
requests were filled (the limit, at least half of it, loosened, or empty) and latency.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from collections import Counter
from typing import Any

from benchmarks.import_bench import ENRICHED, ML_SMALL
from benchmarks.rec_requests import draw
from benchmarks.tool_latency import imported, warm_neighbours
from movieagent.stop_signals import stop_like_ctrl_c
from semantic_layer.graph import Graph, connect
from semantic_layer.recommend.constraints import Bands, Constraints
from semantic_layer.session import Session
from semantic_layer.settings import GraphSettings
from semantic_layer.tools import ToolContext, build_tools
from semantic_layer.tools.payloads import Recommendations

REQUESTS = 300


def check(
    graph: Graph, user: int, args: dict[str, Any], data: Recommendations, bands: Bands
) -> tuple[int, int, str]:
    """(movies returned, movies satisfying the stated constraints, loosening or '')."""
    named = list(args.get("people", []))
    asked = Constraints(
        genres=tuple(args.get("genres", ())),
        exclude_genres=tuple(args.get("exclude_genres", ())),
        people=tuple(data.basis.people or named),
        year_from=args.get("year_from"),
        year_to=args.get("year_to"),
        popularity=args.get("popularity", "any"),
    )
    stated = asked
    if data.basis.loosened:
        found = [c for c, note in asked.loosenings() if note == data.basis.loosened]
        if not found:
            return len(data.recommendations), 0, data.basis.loosened
        stated = found[0]
    people_of: dict[int, set[str]] = {}
    if stated.people:
        for row in graph.read("recommend/people_movies", {"people": list(stated.people)}):
            people_of[row["movieId"]] = {name for name, _ in row["roles"]}
    rated = {r["movieId"] for r in graph.read("bench/user_rated", {"userId": user})}
    seeds = {data.basis.movie_id} if data.basis.movie_id else set()
    good = 0
    for rec in data.recommendations:
        movie = {"movieId": rec.movie_id, "year": rec.year, "genres": rec.genres,
                 "ratingCount": rec.rating_count}  # fmt: skip
        good += (
            stated.admits(movie, bands, people_of)
            and rec.movie_id not in rated
            and rec.movie_id not in seeds
        )
    return len(data.recommendations), good, data.basis.loosened or ""


def run(graph: Graph, requests: int, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    label = lambda r: f"{r['title']} ({r['year']})" if r["year"] else r["title"]  # noqa: E731
    pools = {
        "movies": [label(r) for r in graph.read("bench/popular_movies", {"limit": 60})]
        + [label(r) for r in graph.read("bench/sample_movies", {"step": 23, "limit": 60})],
        "people": [r["name"] for r in graph.read("bench/directors", {"limit": 40})]
        + [r["name"] for r in graph.read("bench/actors", {"limit": 40})],
        "users": [r["userId"] for r in graph.read("bench/sample_users", {"step": 5, "limit": 120})],
    }
    bands = Bands.for_audience(graph.read("recommend/audience")[0]["users"])
    tool = next(t for t in build_tools() if t.name == "recommender")
    warm_neighbours(graph)
    returned = satisfied = 0
    fill: Counter[str] = Counter()
    timings: list[float] = []
    failures: list[dict[str, Any]] = []
    for _ in range(requests):
        user, args = draw(rng, pools)
        started = time.perf_counter()
        result = tool.run(args, ToolContext(graph, Session(user_id=user)))
        timings.append((time.perf_counter() - started) * 1000)
        data = result.data if isinstance(result.data, Recommendations) else None
        if data is None:
            fill["not run (" + result.kind + ")"] += 1
            continue
        n, good, loosened = check(graph, user, args, data, bands)
        returned, satisfied = returned + n, satisfied + good
        if good < n:
            failures.append({"user": user, "args": args, "message": result.message})
        limit = args["limit"]
        fill["full" if n >= limit else "at least half" if n >= (limit + 1) // 2
             else "fewer than half" if n else "empty"] += 1  # fmt: skip
        fill["loosened" if loosened else "as asked"] += 1
    timings.sort()
    return {
        "graph": graph.describe(),
        "requests": requests,
        "seed": seed,
        "movies_returned": returned,
        "movies_satisfying": satisfied,
        "satisfied_share": round(satisfied / max(returned, 1), 4),
        "fill": dict(fill),
        "latency_ms": {
            "p50": round(statistics.median(timings), 2),
            "p95": round(timings[max(0, int(len(timings) * 0.95) - 1)], 2),
            "max": round(timings[-1], 2),
        },
        "failures": failures[:10],
    }


def print_report(result: dict[str, Any]) -> None:
    n = result["requests"]
    fill = result["fill"]
    print(f"graph: {result['graph']}; {n} random requests (seed {result['seed']})")
    print(f"movies returned: {result['movies_returned']:,}; satisfying every constraint as asked "
          f"or as stated loosened: {result['movies_satisfying']:,} "
          f"({result['satisfied_share']:.1%})")  # fmt: skip
    for key in ("full", "at least half", "fewer than half", "empty", "as asked", "loosened"):
        print(f"  requests {key:16} {fill.get(key, 0):>5} ({fill.get(key, 0) / n:.1%})")
    for key in sorted(k for k in fill if k.startswith("not run")):
        print(f"  requests {key:16} {fill[key]:>5} ({fill[key] / n:.1%})")
    latency = result["latency_ms"]
    print(f"latency: p50 {latency['p50']} ms, p95 {latency['p95']} ms, max {latency['max']} ms")
    for failure in result["failures"]:
        print("UNSATISFIED:", json.dumps(failure))


def main(argv: list[str] | None = None) -> dict[str, Any] | None:
    parser = argparse.ArgumentParser(description="Random constraint requests, checked.")
    parser.add_argument("--data-dir", help="a data dir already imported (default: import)")
    parser.add_argument("--graph", help="graph name inside it (default: MOVIEAGENT_GRAPH)")
    parser.add_argument("--requests", type=int, default=REQUESTS)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", help="also write the figures here")
    args = parser.parse_args(argv)
    if args.data_dir or args.graph:
        env = dict(os.environ)
        if args.graph:
            env["MOVIEAGENT_GRAPH"] = args.graph
        if args.data_dir:
            env["MOVIEAGENT_DATA_DIR"] = args.data_dir
        with connect(GraphSettings.from_env(env)) as graph:
            result = run(graph, args.requests, args.seed)
    elif not (ML_SMALL / "ratings.csv").is_file():
        print(f"ml-latest-small not found at {ML_SMALL}: skipped", file=sys.stderr)
        return None
    else:
        enrich = ENRICHED if ENRICHED.is_file() else None
        with imported(ML_SMALL, enrich) as settings, connect(settings) as graph:
            result = run(graph, args.requests, args.seed)
    print_report(result)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(result, out, indent=2)
    return result


if __name__ == "__main__":
    stop_like_ctrl_c()  # SIGTERM unwinds as Ctrl-C: the graph server it started stops
    main()
