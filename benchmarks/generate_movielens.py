"""Write a MovieLens-shaped release (movies, ratings, tags, links) of any size, fast.

    python -m benchmarks.generate_movielens OUT_DIR --ratings 25000000 --users 162000 \\
        --movies 62000 --seed 7

Same files, headers and formats as ml-25m: `Title, The (1999)` titles with pipe-separated genres,
ratings 0.5-5.0 in halves with timestamps, sorted by user then movie. The skew is realistic:
movie popularity and user activity follow Zipf-like laws (every user rates at least 20 movies,
a few rate thousands), and ratings depend on a movie quality and a user bias, so that people who
like one movie tend to like similar ones. The same seed gives the same bytes. 25M ratings take
about two minutes on one core; ratings.csv is formatted with numpy, not the csv module.
"""

from __future__ import annotations

import argparse
import csv
import time
from pathlib import Path

import numpy as np

from movieagent.stop_signals import stop_like_ctrl_c

GENRES = ("Action", "Adventure", "Animation", "Children", "Comedy", "Crime", "Documentary",
          "Drama", "Fantasy", "Film-Noir", "Horror", "IMAX", "Musical", "Mystery", "Romance",
          "Sci-Fi", "Thriller", "War", "Western")  # fmt: skip
WORDS = ("Night", "Love", "Story", "Return", "Last", "City", "Dark", "Man", "Woman", "Day",
         "House", "Blood", "King", "Game", "Dream", "Star", "Road", "War", "Secret", "Life",
         "World", "Time", "Girl", "Boy", "Heart", "Fire", "Water", "Ghost", "Island", "Summer",
         "Winter", "River", "Sky", "Shadow", "Heat", "Casino", "Matrix", "Toy", "Princess",
         "Detective", "Hunter", "Legend", "Empire", "Escape", "Storm", "Silence", "Garden")  # fmt: skip
TAGS = ("funny", "atmospheric", "twist ending", "based on a book", "dark comedy", "visually "
        "appealing", "sci-fi", "thought-provoking", "classic", "romance", "violence", "quirky",
        "surreal", "great soundtrack", "predictable", "boring", "Oscar (Best Picture)",
        "time travel", "dystopia", "animation", "family", "stylized", "nonlinear", "cult film",
        "black and white", "heist", "space", "war", "true story", "In Netflix queue",
        "slow, but worth it")  # fmt: skip
RATING_TEXT = np.array([f"{r / 2:.1f}".encode() for r in range(1, 11)], dtype="S3")
MIN_RATINGS_PER_USER = 20
CHUNK_ROWS = 1 << 20


def generate(out: Path, ratings: int, users: int, movies: int, seed: int) -> dict[str, float]:
    """Write the four files into `out`; return seconds per file."""
    out.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(seed)
    seconds: dict[str, float] = {}
    started = time.perf_counter()
    movie_ids = np.sort(rng.choice(np.arange(1, movies * 3), size=movies, replace=False))
    _write_movies(out / "movies.csv", movie_ids, rng)
    _write_links(out / "links.csv", movie_ids, rng)
    seconds["movies+links"] = time.perf_counter() - started

    started = time.perf_counter()
    user, movie_index, rating, timestamp = _ratings(ratings, users, movies, rng)
    _write_ratings(out / "ratings.csv", user, movie_ids[movie_index], rating, timestamp)
    seconds["ratings"] = time.perf_counter() - started

    started = time.perf_counter()
    _write_tags(out / "tags.csv", user, movie_ids[movie_index], timestamp, rng)
    seconds["tags"] = time.perf_counter() - started
    return seconds


def _zipf_weights(
    n: int, exponent: float, rng: np.random.Generator, offset: float = 0.0
) -> np.ndarray:
    """Zipf-Mandelbrot weights `(rank + offset) ** -exponent`, shuffled over the ids."""
    weights = 1.0 / (np.arange(1, n + 1) + offset) ** exponent
    return rng.permutation(weights / weights.sum())


def _ratings(
    total: int, users: int, movies: int, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Distinct (user, movie) pairs with skewed activity and popularity, sorted by user, movie."""
    users = max(1, min(users, total // MIN_RATINGS_PER_USER))
    cap = max(MIN_RATINGS_PER_USER, movies // 2)
    extra = rng.multinomial(max(total - users * MIN_RATINGS_PER_USER, 0),
                            _zipf_weights(users, 0.5, rng))  # fmt: skip
    per_user = np.minimum(MIN_RATINGS_PER_USER + extra, cap)
    # ml-25m: the top movie has ~0.3% of the ratings, the median movie a handful.
    popularity = np.cumsum(_zipf_weights(movies, 2.0, rng, offset=movies / 186))
    user = np.repeat(np.arange(users, dtype=np.int64), per_user)
    movie = np.searchsorted(popularity, rng.random(len(user)) * popularity[-1])
    for _ in range(50):  # redraw repeated pairs until each user's movies are distinct
        key = user * movies + movie
        order = np.argsort(key, kind="stable")
        repeated = np.zeros(len(key), dtype=bool)
        repeated[order[1:]] = key[order[1:]] == key[order[:-1]]
        if not repeated.any():
            break
        movie[repeated] = rng.integers(0, movies, int(repeated.sum()))
    keep = np.unique(user * movies + movie)  # sorted by user, then movie
    user, movie = keep // movies, keep % movies
    quality = rng.normal(0.0, 0.6, movies)
    bias = rng.normal(0.0, 0.45, users)
    score = 3.6 + quality[movie] + bias[user] + rng.normal(0.0, 0.8, len(user))
    halves = np.clip(np.rint(score * 2), 1, 10).astype(np.int8)  # 1..10 = 0.5..5.0
    start = rng.integers(822_873_600, 1_563_000_000, users)  # 1996 .. mid 2019
    span = rng.integers(3_600, 3 * 365 * 86_400, users)
    timestamp = start[user] + (rng.random(len(user)) * span[user]).astype(np.int64)
    return user + 1, movie, halves, timestamp


def _write_ratings(
    path: Path, user: np.ndarray, movie: np.ndarray, halves: np.ndarray, timestamp: np.ndarray
) -> None:
    with path.open("wb") as out:
        out.write(b"userId,movieId,rating,timestamp\n")
        for start in range(0, len(user), CHUNK_ROWS):
            part = slice(start, start + CHUNK_ROWS)
            rating = RATING_TEXT[halves[part] - 1].view(np.uint8).reshape(-1, 3)
            comma = np.full((len(rating), 1), ord(","), np.uint8)
            line = np.hstack((_digits(user[part], 7), comma, _digits(movie[part], 7), comma,
                              rating, comma, _digits(timestamp[part], 10),
                              np.full((len(rating), 1), ord("\n"), np.uint8)))  # fmt: skip
            flat = line.ravel()
            out.write(flat[flat != 0].tobytes())


def _digits(values: np.ndarray, width: int) -> np.ndarray:
    """Right-aligned ASCII digits of non-negative ints, NUL where a leading zero would be."""
    values = values.astype(np.int64)
    power = 10 ** np.arange(width - 1, -1, -1, dtype=np.int64)
    digits = (values[:, None] // power) % 10 + ord("0")
    leading = (values[:, None] < power) & (power > 1)
    return np.where(leading, 0, digits).astype(np.uint8)


def _write_movies(path: Path, movie_ids: np.ndarray, rng: np.random.Generator) -> None:
    years = rng.integers(1915, 2020, len(movie_ids))
    genre_counts = rng.choice([0, 1, 2, 3, 4], size=len(movie_ids), p=[0.02, 0.35, 0.35, 0.2, 0.08])
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(["movieId", "title", "genres"])
        for i, movie_id in enumerate(movie_ids.tolist()):
            words = [WORDS[w] for w in rng.integers(0, len(WORDS), 1 + i % 4)]
            title = " ".join(words) + (f" {i}" if i % 3 == 0 else "")
            if i % 7 == 0:
                title += ", The"
            count = int(genre_counts[i])
            picked = sorted(GENRES[g] for g in rng.choice(len(GENRES), count, replace=False))
            writer.writerow([movie_id, f"{title} ({years[i]})", "|".join(picked) or
                             "(no genres listed)"])  # fmt: skip


def _write_links(path: Path, movie_ids: np.ndarray, rng: np.random.Generator) -> None:
    imdb = rng.choice(np.arange(1, 9_999_999), size=len(movie_ids), replace=False)
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(["movieId", "imdbId", "tmdbId"])
        for i, movie_id in enumerate(movie_ids.tolist()):
            tmdb = "" if i % 500 == 0 else str(10_000 + i)
            writer.writerow([movie_id, f"{int(imdb[i]):07d}", tmdb])


def _write_tags(
    path: Path, user: np.ndarray, movie: np.ndarray, timestamp: np.ndarray, rng: np.random.Generator
) -> None:
    """About one tag per 23 ratings (as in ml-25m), by a minority of users."""
    taggers = rng.random(int(user.max()) + 1) < 0.1
    chosen = np.flatnonzero(taggers[user] & (rng.random(len(user)) < 0.4))
    words = np.searchsorted(np.cumsum(_zipf_weights(len(TAGS), 1.0, rng)),
                            rng.random(len(chosen)))  # fmt: skip
    words = np.minimum(words, len(TAGS) - 1)
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(["userId", "movieId", "tag", "timestamp"])
        for i, w in zip(chosen.tolist(), words.tolist(), strict=True):
            writer.writerow([int(user[i]), int(movie[i]), TAGS[w], int(timestamp[i]) + 60])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path, help="folder to write movies.csv, ratings.csv, ...")
    parser.add_argument("--ratings", type=int, default=1_000_000)
    parser.add_argument("--users", type=int, default=6_500)
    parser.add_argument("--movies", type=int, default=25_000)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args(argv)
    seconds = generate(args.out, args.ratings, args.users, args.movies, args.seed)
    timing = ", ".join(f"{name} {s:.1f} s" for name, s in seconds.items())
    print(f"wrote {args.out} ({timing})")


if __name__ == "__main__":
    stop_like_ctrl_c()  # SIGTERM unwinds as Ctrl-C: the graph server it started stops
    main()
