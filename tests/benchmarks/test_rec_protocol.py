"""The offline recommendation protocols of `rec_quality`: which ratings each split holds out."""

from __future__ import annotations

import numpy as np
import pytest

from benchmarks import rec_reference
from benchmarks.rec_protocol import Protocol, activity_groups, split_ratings, temporal_split
from data_import.rating_arrays import RatingArrays


def _ratings(rows: list[tuple[int, int, float, int]]) -> RatingArrays:
    user, movie, rating, timestamp = (np.array(c) for c in zip(*rows, strict=True))
    return RatingArrays(user.astype(np.int64), movie.astype(np.int64), rating.astype(float),
                        timestamp.astype(np.int64), np.arange(len(rows)))  # fmt: skip


def _one_user(n: int, user: int = 1, rating: float = 4.0) -> list[tuple[int, int, float, int]]:
    # movie i rated at time 100 - i: the latest ratings are the lowest movieIds
    return [(user, i, rating, 100 - i) for i in range(1, n + 1)]


def _pairs(r: RatingArrays) -> set[tuple[int, int]]:
    return set(zip(r.user.tolist(), r.movie.tolist(), strict=True))


def test_temporal_split_holds_out_each_users_latest_share() -> None:
    split = temporal_split(_ratings(_one_user(10)), 0.3)
    assert _pairs(split.test) == {(1, 1), (1, 2), (1, 3)}
    assert split.relevant == {1: {1, 2, 3}}
    assert split.anchor == {1: 4}  # the latest liked train movie
    assert split.train.timestamp.tolist() == sorted(split.train.timestamp.tolist())


def test_random_split_holds_out_the_same_share_but_not_the_latest() -> None:
    ratings = _ratings(_one_user(40))
    split = split_ratings(ratings, Protocol("random", 0.25, seed=3))
    assert len(split.test) == 10 and len(split.train) == 30
    assert _pairs(split.test) | _pairs(split.train) == _pairs(ratings)
    assert _pairs(split.test) != {(1, i) for i in range(1, 11)}
    again = split_ratings(ratings, Protocol("random", 0.25, seed=3))
    assert _pairs(again.test) == _pairs(split.test)  # seeded: repeatable
    other = split_ratings(ratings, Protocol("random", 0.25, seed=4))
    assert _pairs(other.test) != _pairs(split.test)
    assert split.train.timestamp.tolist() == sorted(split.train.timestamp.tolist())


def test_last_one_holds_out_one_rating_and_evaluates_only_a_like() -> None:
    rows = _one_user(10) + _one_user(10, 2)[1:] + [(2, 1, 2.0, 99)]  # user 2's latest: 2.0
    split = split_ratings(_ratings(rows), Protocol("last-one"))
    assert _pairs(split.test) == {(1, 1), (2, 1)}
    assert split.users == [1]


def test_like_threshold_decides_relevant_and_train_likes() -> None:
    rows = [(1, m, 3.5, 100 - m) for m in range(1, 11)]
    assert split_ratings(_ratings(rows), Protocol(test_share=0.2)).users == []
    split = split_ratings(_ratings(rows), Protocol(test_share=0.2, like=3.5))
    assert split.users == [1] and split.relevant == {1: {1, 2}}
    assert rec_reference.train_likes(split).likes.sum() == 8


def test_activity_groups_part_users_by_train_ratings() -> None:
    rows = _one_user(20, 1) + _one_user(100, 2) + _one_user(300, 3)
    groups = activity_groups(split_ratings(_ratings(rows), Protocol()))
    assert list(groups.values()) == [[1], [2], [3]]
    assert list(groups) == ["0-49 train ratings", "50-199 train ratings", "200+ train ratings"]


@pytest.mark.parametrize("bad", [{"split": "leave-one"}, {"test_share": 1.0}])
def test_a_bad_protocol_is_refused_with_a_sentence(bad: dict[str, object]) -> None:
    with pytest.raises(ValueError, match="expected"):
        Protocol(**bad)  # type: ignore[arg-type]
