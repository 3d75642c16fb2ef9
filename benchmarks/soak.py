"""Reliability soak: simulated users rate in parallel processes against one data directory.

    python -m benchmarks.soak                          # 4 users, 20 s, a generated small release
    python -m benchmarks.soak --users 6 --seconds 60   # longer
    python -m benchmarks.soak --crash                  # also SIGKILL the server at the end

Each user is a process of its own that opens the embedded graph the way the app does (the
first starts the server, the others attach), gets a fresh app user id, then until the time is
up rates random movies, sometimes forgets one, re-reads its ratings (they must be exactly what
it wrote) and now and then closes the graph and opens it again (the last client shuts the
server down, the next one starts it: the start/attach/shutdown races). Each user writes down
what it expects. At the end the graph is opened anew (with `--crash`, after a SIGKILL of the
server) and compared with what every user expects: a rating missing or different is lost, one
under a user that never wrote it is misattributed. The MovieLens ratings are counted too.
Prints the figures; exits non-zero when anything was lost or misattributed.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import random
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path

from movieagent.stop_signals import stop_like_ctrl_c

MOVIES = 300
LEGACY_USERS = 50


def write_release(folder: Path) -> Path:
    """A small release: MOVIES movies, LEGACY_USERS users with 20 ratings each."""
    rng = random.Random(7)
    folder.mkdir(parents=True, exist_ok=True)
    lines = ["movieId,title,genres"]
    lines += [f"{m},Soak Movie {m} ({1950 + m % 70}),Drama" for m in range(1, MOVIES + 1)]
    (folder / "movies.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    rows = ["userId,movieId,rating,timestamp"]
    for user in range(1, LEGACY_USERS + 1):
        for movie in rng.sample(range(1, MOVIES + 1), 20):
            rows.append(f"{user},{movie},{rng.randint(1, 10) / 2},{1_000_000 + user}")
    (folder / "ratings.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    return folder


def user_process(data_dir: str, seconds: float, seed: int, out: str) -> None:
    """One simulated user: rate, forget, check, reconnect until the time is up."""
    os.environ["MOVIEAGENT_DATA_DIR"] = data_dir
    os.environ.pop("NEO4J_URI", None)
    from semantic_layer.graph import connect
    from semantic_layer.users import forget_rating, new_user_id, user_ratings

    rng = random.Random(seed)
    expected: dict[int, float] = {}
    latencies: list[float] = []
    errors: list[str] = []
    counts = {"rated": 0, "forgot": 0, "checked": 0, "reopened": 0, "mismatch": 0}
    graph = connect()
    user = new_user_id(graph)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            roll = rng.random()
            if roll < 0.04:
                graph.close()
                graph = connect()
                counts["reopened"] += 1
            elif roll < 0.12 and expected:
                movie = rng.choice(sorted(expected))
                if forget_rating(graph, user, movie):
                    del expected[movie]
                    counts["forgot"] += 1
            elif roll < 0.2:
                seen = {r["movieId"]: r["rating"] for r in user_ratings(graph, user, 1000)}
                counts["checked"] += 1
                if seen != expected:
                    counts["mismatch"] += 1
            else:
                movie = rng.randint(1, MOVIES)
                rating = rng.randint(1, 10) / 2
                started = time.perf_counter()
                graph.write("memory/rate", {"userId": user, "movieId": movie, "rating": rating,
                                            "timestamp": int(time.time())})  # fmt: skip
                latencies.append(time.perf_counter() - started)
                expected[movie] = rating
                counts["rated"] += 1
        except Exception as e:  # reported, and the soak counts it as a failure
            errors.append(f"{type(e).__name__}: {e}")
            time.sleep(0.2)
            try:
                graph = connect()
            except Exception as again:
                errors.append(f"reconnect: {type(again).__name__}: {again}")
    graph.close()
    Path(out).write_text(json.dumps({"user": user, "expected": expected, "counts": counts,
                                     "latencies": latencies, "errors": errors}))  # fmt: skip


def run(users: int, seconds: float, data_dir: Path, crash: bool) -> int:
    from data_import.importer import ImportOptions, import_release
    from semantic_layer.graph import connect
    from semantic_layer.settings import GraphSettings
    from semantic_layer.users import FIRST_APP_USER_ID

    settings = GraphSettings.from_env({"MOVIEAGENT_DATA_DIR": str(data_dir)})
    release = write_release(data_dir / "soak-release")
    with connect(settings) as graph:
        import_release(graph, release, None, ImportOptions(show_progress=False))
        legacy = len(graph.read("test/all_ratings"))
    ctx = multiprocessing.get_context("spawn")
    outs = [data_dir / f"soak-user-{i}.json" for i in range(users)]
    procs = [ctx.Process(target=user_process, args=(str(data_dir), seconds, i, str(out)))
             for i, out in enumerate(outs)]  # fmt: skip
    started = time.monotonic()
    for proc in procs:
        proc.start()
    for proc in procs:
        proc.join(seconds + 120)
    elapsed = time.monotonic() - started
    results = [json.loads(out.read_text()) for out in outs if out.is_file()]
    crashed = users - len(results)
    graph = connect(settings)
    if crash:
        pid = _server_pid(data_dir)
        if pid:
            graph.write("memory/rate", {"userId": FIRST_APP_USER_ID - 1, "movieId": 1,
                                        "rating": 1.0, "timestamp": 0})  # fmt: skip
            os.kill(pid, signal.SIGKILL)
            time.sleep(0.5)
        graph.close()
        graph = connect(settings)
    rows = graph.read("test/all_ratings")
    graph.close()
    stored: dict[int, dict[int, float]] = {}
    for row in rows:
        stored.setdefault(row["userId"], {})[row["movieId"]] = row["rating"]
    lost = misattributed = 0
    owners = {r["user"] for r in results}
    for result in results:
        mine = stored.get(result["user"], {})
        want = {int(k): v for k, v in result["expected"].items()}
        lost += sum(1 for m, v in want.items() if mine.get(m) != v)
        misattributed += sum(1 for m in mine if m not in want)
    strangers = sum(len(v) for u, v in stored.items() if u >= FIRST_APP_USER_ID and u not in owners)
    legacy_now = sum(len(v) for u, v in stored.items() if u < FIRST_APP_USER_ID - 1)
    last_write_kept = stored.get(FIRST_APP_USER_ID - 1) == {1: 1.0} if crash else True
    counts: dict[str, int] = {}
    for result in results:
        for key, value in result["counts"].items():
            counts[key] = counts.get(key, 0) + value
    latencies = sorted(x for r in results for x in r["latencies"])
    errors = [e for r in results for e in r["errors"]]
    ids = [r["user"] for r in results]
    print(f"soak: {users} users x {seconds:.0f} s ({elapsed:.1f} s wall), crash at end: {crash}")
    print(f"  operations: {counts}")
    if latencies:
        p50 = statistics.median(latencies) * 1000
        p95 = latencies[int(0.95 * (len(latencies) - 1))] * 1000
        print(f"  rate writes: {len(latencies)} ({len(latencies) / elapsed:.0f}/s), "
              f"p50 {p50:.1f} ms, p95 {p95:.1f} ms")  # fmt: skip
    print(f"  distinct user ids: {len(set(ids))} of {len(ids)}; users that died: {crashed}")
    print(f"  lost ratings: {lost}; misattributed: {misattributed + strangers}; "
          f"read-back mismatches: {counts.get('mismatch', 0)}; errors: {len(errors)}")  # fmt: skip
    print(f"  MovieLens ratings: {legacy_now} of {legacy}")
    if crash:
        kept = "kept" if last_write_kept else "LOST"
        print(f"  the rating acknowledged just before the kill: {kept}")
    for error in errors[:5]:
        print(f"    {error}")
    bad = (
        lost or misattributed or strangers or crashed or legacy_now != legacy or not last_write_kept
    )
    bad = bad or len(set(ids)) != len(ids) or counts.get("mismatch", 0) or errors
    return 1 if bad else 0


def _server_pid(data_dir: Path) -> int | None:
    registry = data_dir / "movieagent.db.settings"
    if not registry.is_file():
        return None
    pidfile = Path(json.loads(registry.read_text())["pidfile"])
    return int(pidfile.read_text().strip()) if pidfile.is_file() else None


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--users", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--crash", action="store_true", help="SIGKILL the server before the check")
    parser.add_argument("--data-dir", type=Path, help="default: a new temporary directory")
    args = parser.parse_args(argv)
    if args.data_dir:
        sys.exit(run(args.users, args.seconds, args.data_dir, args.crash))
    with tempfile.TemporaryDirectory(prefix="movieagent-soak-") as folder:
        sys.exit(run(args.users, args.seconds, Path(folder), args.crash))


if __name__ == "__main__":
    stop_like_ctrl_c()  # SIGTERM unwinds as Ctrl-C: the graph server it started stops
    main()
