"""p50/p95 latency of every tool over an imported graph, by calling the tools directly.

    python benchmarks/tool_latency.py [--data-dir DIR] [--graph NAME] [--rounds 3]

Runs against the graph `movieagent import` wrote (default: MOVIEAGENT_DATA_DIR / MOVIEAGENT_GRAPH,
so a 25M graph imported into another data dir is measured with `--data-dir`). Inputs are
chosen for the worst case as well as the typical one: the most rated movies (largest
collaborative neighbourhoods), every n-th movie, prolific directors, the heaviest raters.
Only read tools are measured; Memory writes are left out so the graph is not changed.
Targets (issue 3): p95 under 20 ms on ml-latest-small, under 300 ms at 25M ratings.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable
from itertools import pairwise
from pathlib import Path
from typing import Any

from semantic_layer.graph import Graph, connect
from semantic_layer.session import GUEST_USER_ID, Session
from semantic_layer.settings import GraphSettings
from semantic_layer.tools import build_tools

SAMPLE = 40


def workload(graph: Graph) -> dict[str, list[tuple[int, dict[str, Any]]]]:
    """(user id, arguments) per measured case."""

    def label(row: dict[str, Any]) -> str:
        return f"{row['title']} ({row['year']})" if row["year"] else row["title"]

    popular = [label(r) for r in graph.read("bench/popular_movies", {"limit": SAMPLE // 2})]
    spread = [label(r) for r in graph.read("bench/sample_movies", {"step": 7, "limit": SAMPLE})]
    movies = popular + spread[: SAMPLE // 2]
    directors = [r["name"] for r in graph.read("bench/directors", {"limit": SAMPLE})]
    users = [r["userId"] for r in graph.read("bench/heavy_users", {"limit": SAMPLE // 4})]
    genres = ["Drama", "Comedy", "Action", "Thriller", "Film-Noir", "Sci-Fi", "Horror", "War"]
    guest = GUEST_USER_ID
    heavy = users[0] if users else guest
    return {
        "recommender(movie)": [(heavy, {"movie": m}) for m in movies],
        "recommender(genre)": [(heavy, {"genre": g}) for g in genres],
        "recommender(movie, genre)": [
            (heavy, {"movie": m, "genre": genres[i % len(genres)]}) for i, m in enumerate(movies)
        ],
        "recommender(user)": [(u, {}) for u in users],
        "information(movie)": [(heavy, {"entity": m}) for m in movies],
        "information(person)": [(guest, {"entity": d, "entity_type": "person"}) for d in directors],
        "information(misspelled)": [(guest, {"entity": m[:-8] + "x"}) for m in popular],
        "smalltalk": [(guest, {"query": "hi"})] * 10,
        "top_movies_by_director": [(guest, {"director": d}) for d in directors],
        "movies_together": [
            (guest, {"first_person": a, "second_person": b}) for a, b in pairwise(directors)
        ],
        "most_tagged": [
            (guest, {"tag": t}) for t in ("funny", "twist ending", "pixar", "atmospheric")
        ],
    }


def measure(graph: Graph, rounds: int) -> dict[str, dict[str, float]]:
    cases = workload(graph)
    sessions: dict[int, dict[str, Any]] = {}

    def tool_for(user_id: int, case: str) -> Callable[[dict[str, Any]], Any]:
        if user_id not in sessions:
            sessions[user_id] = {t.name: t for t in build_tools(graph, Session(user_id=user_id))}
        return sessions[user_id][case.split("(")[0]].invoke

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
    return figures


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description="Tool latency p50/p95 over an imported graph.")
    parser.add_argument("--data-dir", type=Path, help="embedded graph folder (default: settings)")
    parser.add_argument("--graph", help="graph name inside it (default: MOVIEAGENT_GRAPH)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--json", action="store_true", help="print JSON only")
    args = parser.parse_args(argv)
    env = dict(__import__("os").environ)
    if args.graph:
        env["MOVIEAGENT_GRAPH"] = args.graph
    settings = GraphSettings.from_env(env, data_dir=args.data_dir)
    with connect(settings) as graph:
        figures = measure(graph, args.rounds)
        where = graph.describe()
    if args.json:
        print(json.dumps({"graph": where, "tools": figures}, indent=2))
    else:
        print(f"graph: {where}")
        print(f"{'tool':28} {'calls':>6} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8}")
        for case, f in figures.items():
            print(f"{case:28} {f['calls']:>6} {f['p50_ms']:>8} {f['p95_ms']:>8} {f['max_ms']:>8}")
    return {"graph": where, "tools": figures}


if __name__ == "__main__":
    main()
