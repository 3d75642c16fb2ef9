"""The offline protocol of `rec_quality`: a split per user, and top-10 metrics.

The default (the reference protocol): for each user, ratings sorted by time (ties by movieId): the last
20 % (at least one) are test, the rest train. Relevant = test ratings >= 4. Evaluated: users
with at least one relevant test rating and at least 5 train likes. Every method recommends 10
movies the user has not rated in train. nDCG@10 (binary gains), Recall@10 = hits / min(10,
relevant), HR@10 = share of users with a hit, coverage = distinct movies in all top-10 lists /
movies in the catalogue.

Other protocols a reviewer may pick (`Protocol`): another test share; a random holdout of the
same share per user (`random`, seeded) instead of the latest ratings; leave-last-one-out
(`last-one`: each user's latest rating alone is test, evaluated when it is a like); another
like threshold (`like`, e.g. 3.5: relevant test ratings, train likes of the references and the
5-like minimum; the graph's own like stays 4.0). `activity_groups` splits the evaluated users
by how many train ratings they have.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from data_import.rating_arrays import RatingArrays

LIKE = 4.0
TEST_SHARE = 0.2
MIN_TRAIN_LIKES = 5
TOP = 10


SPLITS = ("temporal", "random", "last-one")
GROUPS = ((0, 50), (50, 200), (200, None))  # train ratings per user: [low, high)


@dataclass(frozen=True)
class Protocol:
    split: str = "temporal"  # one of SPLITS
    test_share: float = TEST_SHARE  # temporal and random; last-one holds out one rating
    like: float = LIKE
    seed: int = 0  # random only

    def __post_init__(self) -> None:
        if self.split not in SPLITS:
            raise ValueError(f"split {self.split!r}: expected one of {', '.join(SPLITS)}")
        if not 0.0 < self.test_share < 1.0:
            raise ValueError(f"test share {self.test_share}: expected a share between 0 and 1")

    def describe(self) -> str:
        held = {
            "temporal": f"the last {self.test_share:.0%} of each user's ratings held out",
            "random": f"a random {self.test_share:.0%} of each user's ratings held out "
            f"(seed {self.seed})",
            "last-one": "each user's last rating held out",
        }[self.split]
        return f"{held}, relevant = test ratings >= {self.like:g}"


@dataclass(frozen=True)
class Split:
    train: RatingArrays
    test: RatingArrays
    users: list[int]  # evaluated users, ascending
    relevant: dict[int, set[int]]  # per evaluated user: liked test movies
    anchor: dict[int, int]  # per evaluated user: their last liked train movie (by-movie runs)
    like: float = LIKE  # the like threshold of `relevant` and of the references' train likes


def temporal_split(ratings: RatingArrays, test_share: float = TEST_SHARE) -> Split:
    return split_ratings(ratings, Protocol(test_share=test_share))


def split_ratings(ratings: RatingArrays, protocol: Protocol) -> Split:
    """Train and test per `protocol`; train stays in time order per user."""
    order = np.lexsort((ratings.movie, ratings.timestamp, ratings.user))
    r = ratings.take(order)
    _, first, counts = np.unique(r.user, return_index=True, return_counts=True)
    position = np.arange(len(r)) - np.repeat(first, counts)
    if protocol.split == "random":  # a random order within each user instead of time
        shuffled = np.lexsort((np.random.default_rng(protocol.seed).random(len(r)), r.user))
        rank = np.empty(len(r), np.int64)
        rank[shuffled] = position
        position = rank
    if protocol.split == "last-one":
        n_test = np.ones(len(counts), np.int64)
    else:
        n_test = np.maximum(1, (protocol.test_share * counts).astype(np.int64))
    is_test = position >= np.repeat(counts - n_test, counts)
    train, test = r.take(np.flatnonzero(~is_test)), r.take(np.flatnonzero(is_test))
    like = protocol.like

    relevant: dict[int, set[int]] = {}
    for user, movie in zip(
        test.user[test.rating >= like].tolist(), test.movie[test.rating >= like].tolist(),
        strict=True,
    ):  # fmt: skip
        relevant.setdefault(user, set()).add(movie)
    liked = train.rating >= like
    likes = dict(zip(*np.unique(train.user[liked], return_counts=True), strict=True))
    evaluated = sorted(u for u in relevant if likes.get(u, 0) >= MIN_TRAIN_LIKES)
    anchor: dict[int, int] = {}
    for user, movie in zip(train.user[liked].tolist(), train.movie[liked].tolist(), strict=True):
        anchor[user] = movie  # train is in time order: the last one wins
    return Split(train, test, evaluated, {u: relevant[u] for u in evaluated},
                 {u: anchor[u] for u in evaluated}, like)  # fmt: skip


def activity_groups(split: Split) -> dict[str, list[int]]:
    """The evaluated users by their number of train ratings (`GROUPS`), named by range."""
    users, counts = np.unique(split.train.user, return_counts=True)
    count = dict(zip(users.tolist(), counts.tolist(), strict=True))
    groups: dict[str, list[int]] = {}
    for low, high in GROUPS:
        name = f"{low}+ train ratings" if high is None else f"{low}-{high - 1} train ratings"
        groups[name] = [u for u in split.users
                        if count[u] >= low and (high is None or count[u] < high)]  # fmt: skip
    return groups


def write_release(train: RatingArrays, movies_csv: Path, out: Path) -> Path:
    """A MovieLens-shaped directory holding the catalogue and the train ratings only."""
    out.mkdir(parents=True, exist_ok=True)
    (out / "movies.csv").write_bytes(movies_csv.read_bytes())
    columns = np.column_stack((train.user, train.movie, train.rating, train.timestamp))
    with (out / "ratings.csv").open("w", encoding="utf-8", newline="\n") as handle:
        handle.write("userId,movieId,rating,timestamp\n")
        np.savetxt(handle, columns, fmt=["%d", "%d", "%.1f", "%d"], delimiter=",")
    return out


_DISCOUNT = 1.0 / np.log2(np.arange(2, TOP + 2))


def metrics(
    lists: Mapping[int, Sequence[int]], relevant: Mapping[int, set[int]], catalogue: int
) -> dict[str, float]:
    """nDCG@10, Recall@10, HR@10 averaged over the users of `relevant`; coverage of `lists`."""
    ndcg = recall = hits = 0.0
    for user, wanted in relevant.items():
        top = list(lists.get(user, []))[:TOP]
        gains = np.array([movie in wanted for movie in top] + [False] * (TOP - len(top)))
        ideal = _DISCOUNT[: min(TOP, len(wanted))].sum()
        ndcg += float((gains * _DISCOUNT).sum() / ideal)
        recall += gains.sum() / min(TOP, len(wanted))
        hits += bool(gains.any())
    n = max(len(relevant), 1)
    shown = {movie for top in lists.values() for movie in list(top)[:TOP]}
    return {
        "ndcg@10": round(ndcg / n, 4),
        "recall@10": round(recall / n, 4),
        "hr@10": round(hits / n, 4),
        "coverage": round(len(shown) / catalogue, 4),
    }
