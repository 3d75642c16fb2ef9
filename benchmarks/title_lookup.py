"""Does every name a movie is known by find it? The alias lookup sweep.

    python -m benchmarks.title_lookup                        # ml-latest-small + enriched
    python -m benchmarks.title_lookup --data-dir DIR [--graph NAME]  # a graph already imported
    python -m benchmarks.title_lookup --min-ratings 10 --show 30 [--all] [--json] [--check]

Over every movie rated at least `--min-ratings` times whose MovieLens title carries other names
(`Seven (a.k.a. Se7en) (1995)`, `Amelie (Fabuleux destin d'Amélie Poulain, Le) (2001)`), it
looks up, as a user would type them, the main title as MovieLens writes it with its article
moved back ("Amelie", "Seven"), the display title where it differs ("Amélie"), and each alias
("Se7en", "Le Fabuleux destin d'Amélie Poulain"), and counts each lookup as:

- right: `resolve_movie` gives this movie;
- asked-with-it: it asks back, and this movie is among the candidates (with years);
- wrong: it silently gives another movie;
- asked-without-it: it asks back without this movie; not found: it finds nothing.

The names come from `split_title` of the stored original string, so the same sweep runs on a
graph imported before aliases were stored. Targets: right or asked-with-it >= 97 %, wrong 0.
`--all` sweeps every movie (its title and any other names): plain titles must not regress.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from benchmarks.import_bench import ENRICHED, ML_SMALL
from benchmarks.tool_latency import imported
from data_import.titles import split_title
from movieagent.stop_signals import stop_like_ctrl_c
from semantic_layer.errors import AmbiguousEntityError, EntityNotFoundError, SemanticLayerError
from semantic_layer.graph import Graph, connect
from semantic_layer.resolve import resolve_movie
from semantic_layer.settings import GraphSettings

OUTCOMES = ("right", "asked-with-it", "wrong", "asked-without-it", "not found")
TARGET = 0.97


def lookups(graph: Graph, min_ratings: int, every: bool = False) -> list[tuple[int, str, str]]:
    """(movieId, kind, typed) for every movie with other names (`every`: every movie);
    kind is 'main' or 'alias'."""
    found: list[tuple[int, str, str]] = []
    for row in graph.read("bench/titled_movies", {"minRatings": min_ratings}):
        split = split_title(row["originalTitle"] or "")
        if not split.written and not every:
            continue
        seen: set[str] = set()
        for kind, typed in [("main", split.main), ("main", split.title)] + [
            ("alias", a) for a in split.written
        ]:
            if typed.casefold() not in seen:
                seen.add(typed.casefold())
                found.append((row["movieId"], kind, typed))
    return found


def outcome(graph: Graph, movie_id: int, typed: str) -> tuple[str, str]:
    """The outcome of one lookup, and what resolution answered."""
    try:
        movie = resolve_movie(graph, typed)
    except AmbiguousEntityError as e:
        asked = [c.movie_id for c in e.candidates]
        said = "asked: " + ", ".join(c.label for c in e.candidates)
        return ("asked-with-it" if movie_id in asked else "asked-without-it"), said
    except EntityNotFoundError as e:
        return "not found", str(e)
    except SemanticLayerError as e:
        return "not found", f"{type(e).__name__}: {e}"
    said = f"{movie.label} [{movie.how}]"
    return ("right" if movie.movie_id == movie_id else "wrong"), said


def sweep(graph: Graph, min_ratings: int, every: bool = False) -> dict[str, Any]:
    counts: dict[str, Counter[str]] = {"main": Counter(), "alias": Counter()}
    misses: list[dict[str, Any]] = []
    names = lookups(graph, min_ratings, every)
    for movie_id, kind, typed in names:
        result, said = outcome(graph, movie_id, typed)
        counts[kind][result] += 1
        if result not in ("right", "asked-with-it"):
            misses.append({"movieId": movie_id, "typed": typed, "outcome": result, "got": said})
    total = counts["main"] + counts["alias"]
    lookups_done = sum(total.values())
    good = total["right"] + total["asked-with-it"]
    return {
        "graph": graph.describe(),
        "min_ratings": min_ratings,
        "every": every,
        "movies": len({movie_id for movie_id, _, _ in names}),
        "lookups": lookups_done,
        "counts": {k: {o: c[o] for o in OUTCOMES} for k, c in {**counts, "all": total}.items()},
        "right_or_asked_pct": round(100 * good / lookups_done, 1) if lookups_done else None,
        "wrong": total["wrong"],
        "ok": bool(lookups_done) and good / lookups_done >= TARGET and total["wrong"] == 0,
        "misses": misses,
    }


def print_report(result: dict[str, Any], show: int) -> None:
    which = "movies" if result["every"] else "movies with other names"
    print(f"graph: {result['graph']}; {result['movies']} {which} and >= "
          f"{result['min_ratings']} ratings: {result['lookups']} lookups")  # fmt: skip
    head = f"{'names':8}" + "".join(f"{o:>18}" for o in OUTCOMES) + f"{'total':>8}"
    print(head)
    print("-" * len(head))
    for kind, counts in result["counts"].items():
        line = "".join(f"{counts[o]:>18}" for o in OUTCOMES)
        print(f"{kind:8}{line}{sum(counts.values()):>8}")
    mark = "pass" if result["ok"] else "FAIL"
    print(f"\nright or asked-with-it: {result['right_or_asked_pct']} % (target >= "
          f"{TARGET:.0%}); silently wrong: {result['wrong']} (target 0)  {mark}")  # fmt: skip
    for miss in result["misses"][:show]:
        print(f"  {miss['outcome']:>16}  {miss['typed']!r} (movie {miss['movieId']}) -> "
              f"{miss['got'][:140]}")  # fmt: skip
    if len(result["misses"]) > show:
        print(f"  ... {len(result['misses']) - show} more (--show N)")


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description="Alias lookup sweep.")
    parser.add_argument("--data-dir", type=Path, help="sweep the graph in this data dir")
    parser.add_argument("--graph", help="graph name inside it (default: MOVIEAGENT_GRAPH)")
    parser.add_argument("--min-ratings", type=int, default=10)
    parser.add_argument("--all", action="store_true", help="every movie, not only those "
                        "with other names (a regression check for plain titles)")  # fmt: skip
    parser.add_argument("--show", type=int, default=20, help="misses listed (default 20)")
    parser.add_argument("--json", action="store_true", help="print JSON only")
    parser.add_argument("--check", action="store_true", help="exit 1 if a target is missed")
    args = parser.parse_args(argv)

    if args.data_dir or args.graph:
        env = dict(os.environ)
        if args.graph:
            env["MOVIEAGENT_GRAPH"] = args.graph
        with connect(GraphSettings.from_env(env, data_dir=args.data_dir)) as graph:
            result = sweep(graph, args.min_ratings, args.all)
    elif (ML_SMALL / "ratings.csv").is_file():
        enrich = ENRICHED if ENRICHED.is_file() else None
        with imported(ML_SMALL, enrich) as settings, connect(settings) as graph:
            result = sweep(graph, args.min_ratings, args.all)
    else:
        sys.exit(f"ml-latest-small not found at {ML_SMALL}; pass --data-dir")
    if args.json:
        print(json.dumps(result, indent=2, ensure_ascii=False))
    else:
        print_report(result, args.show)
    if args.check and not result["ok"]:
        sys.exit(1)
    return result


if __name__ == "__main__":
    stop_like_ctrl_c()  # SIGTERM unwinds as Ctrl-C: the graph server it started stops
    main()
