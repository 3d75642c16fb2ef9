"""Collaborative-filtering figures computed with plain Python from `ratings.csv`.

Independent of the graph: the tests compare what the tools return with these.
"""

from __future__ import annotations

import csv
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path

LIKE = 4.0
TOP = 50


@dataclass
class Ratings:
    by_user: dict[int, dict[int, float]]
    count: Counter[int]
    average: dict[int, float]
    likes: Counter[int]
    when: dict[int, dict[int, int]] = field(default_factory=dict)  # user -> movie -> timestamp


def read_ratings(release: Path) -> Ratings:
    by_user: dict[int, dict[int, float]] = defaultdict(dict)
    total: Counter[int] = Counter()
    sums: dict[int, float] = defaultdict(float)
    likes: Counter[int] = Counter()
    when: dict[int, dict[int, int]] = defaultdict(dict)
    with (release / "ratings.csv").open(encoding="utf-8", newline="") as f:
        for row in csv.DictReader(f):
            user, movie, rating = int(row["userId"]), int(row["movieId"]), float(row["rating"])
            by_user[user][movie] = rating
            when[user][movie] = int(row["timestamp"])
            total[movie] += 1
            sums[movie] += rating
            likes[movie] += rating >= LIKE
    average = {m: sums[m] / total[m] for m in total}
    return Ratings(dict(by_user), total, average, likes, dict(when))


def co_likes(ratings: Ratings) -> dict[int, Counter[int]]:
    """For each movie, how many users liked it together with each other movie."""
    pairs: dict[int, Counter[int]] = defaultdict(Counter)
    for movies in ratings.by_user.values():
        liked = sorted(m for m, r in movies.items() if r >= LIKE)
        for a, b in combinations(liked, 2):
            pairs[a][b] += 1
            pairs[b][a] += 1
    return pairs


def top_similar(
    ratings: Ratings, pairs: dict[int, Counter[int]], movie: int
) -> list[tuple[int, int]]:
    """The 50 (movieId, support) neighbours by support, then average rating, then movieId."""
    ranked = sorted(
        pairs.get(movie, Counter()).items(),
        key=lambda item: (-item[1], -ratings.average[item[0]], item[0]),
    )
    return ranked[:TOP]
