"""ratings.csv as numpy arrays: a vectorized reader that keeps the line-by-line validation.

The csv module needs minutes for the 25M lines of ml-25m. Here the file is read in byte chunks
and every line of the plain form `digits,digits,decimal,digits` is parsed at once with numpy.
Any other line (quotes, spaces, signs, a rating out of range, a wrong field count) goes through
`readers.parse_line`, the validated parser every other file uses, so a bad row is reported
with the same line number and reason on both paths.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields
from pathlib import Path

import numpy as np

from data_import import readers
from data_import.errors import SourceError
from data_import.problems import Problems
from semantic_layer.users import FIRST_APP_USER_ID

CHUNK_BYTES = 1 << 23
_NL, _CR, _COMMA, _DOT, _ZERO = 10, 13, 44, 46, 48
_INT_DIGITS = 10  # longer integers take the validated path
_RATING_CHARS = 6
_POW10 = 10 ** np.arange(19, dtype=np.int64)


@dataclass(frozen=True)
class RatingArrays:
    """One rating per index; `line` is the row's line number in ratings.csv."""

    user: np.ndarray
    movie: np.ndarray
    rating: np.ndarray
    timestamp: np.ndarray
    line: np.ndarray

    def __len__(self) -> int:
        return len(self.user)

    def take(self, index: np.ndarray) -> RatingArrays:
        return RatingArrays(*(getattr(self, f.name)[index] for f in fields(self)))

    @staticmethod
    def concat(parts: list[RatingArrays]) -> RatingArrays:
        if not parts:
            return RatingArrays(*(np.empty(0, dtype) for dtype in _DTYPES))
        return RatingArrays(
            *(np.concatenate([getattr(p, f.name) for p in parts]) for f in fields(RatingArrays))
        )


_DTYPES = (np.int64, np.int64, np.float64, np.int64, np.int64)


def read_ratings(
    path: Path,
    problems: Problems,
    on_lines: Callable[[int], None] | None = None,
    chunk_bytes: int = CHUNK_BYTES,
) -> RatingArrays:
    """All good rows of `path` in file order; bad rows go to `problems` by line number."""
    if not path.is_file():
        spec = readers.RATINGS
        raise SourceError(
            f"Missing {path}: expected {spec.name} with columns {','.join(spec.header)}."
        )
    parts: list[RatingArrays] = []
    with path.open("rb") as handle:
        header = handle.readline()
        readers.check_header(path, header.decode("utf-8-sig", "replace"), readers.RATINGS)
        first_line = 2
        rest = b""
        while True:
            block = handle.read(chunk_bytes)
            data = rest + block
            if not block:
                if data:
                    parts.append(_parse_chunk(data + b"\n", first_line, path.name, problems))
                    _report(on_lines, 1)
                break
            cut = data.rfind(b"\n") + 1
            data, rest = data[:cut], data[cut:]
            if data:
                lines = data.count(b"\n")
                parts.append(_parse_chunk(data, first_line, path.name, problems))
                first_line += lines
                _report(on_lines, lines)
    return RatingArrays.concat(parts)


def _report(on_lines: Callable[[int], None] | None, lines: int) -> None:
    if on_lines is not None:
        on_lines(lines)


def _parse_chunk(data: bytes, first_line: int, label: str, problems: Problems) -> RatingArrays:
    """Parse whole lines (`data` ends with a newline) that start at line `first_line`."""
    a = np.frombuffer(data, dtype=np.uint8)
    ends = np.flatnonzero(a == _NL)
    starts = np.concatenate(([0], ends[:-1] + 1))
    stops = ends - ((ends > starts) & (a[np.maximum(ends - 1, 0)] == _CR))
    digit = (a - _ZERO) < 10  # uint8 arithmetic wraps below '0'
    comma = a == _COMMA
    other = ~(digit | comma | (a == _DOT))
    odd = np.add.reduceat(other, starts, dtype=np.int64) - 1 - (ends - stops)
    commas = np.add.reduceat(comma, starts, dtype=np.int64)
    plain = (odd == 0) & (commas == 3)

    at = np.flatnonzero(comma)
    at = at[plain[np.searchsorted(ends, at)]].reshape(-1, 3)
    begin, stop = starts[plain], stops[plain]
    user, ok = _digits(a, begin, at[:, 0])
    movie, ok_movie = _digits(a, at[:, 0] + 1, at[:, 1])
    rating, ok_rating = _decimal(a, at[:, 1] + 1, at[:, 2])
    timestamp, ok_time = _digits(a, at[:, 2] + 1, stop)
    ok &= ok_movie & ok_rating & ok_time & (rating >= 0.5) & (rating <= 5.0)
    ok &= (user < FIRST_APP_USER_ID) & (movie <= readers.MAX_ID)  # else reported by parse_line

    line = np.flatnonzero(plain) + first_line
    fast = RatingArrays(user[ok], movie[ok], rating[ok], timestamp[ok], line[ok])
    slow = np.sort(np.concatenate((np.flatnonzero(~plain), np.flatnonzero(plain)[~ok])))
    if not len(slow):
        return fast
    rows = []
    for index in slow.tolist():
        number = first_line + index
        text = readers.decode_line(data[starts[index] : ends[index] + 1], label, number, problems)
        row = None if text is None else readers.parse_line(text, readers.RATINGS, label, number,
                                                           problems)  # fmt: skip
        if row is not None:
            rows.append((row["userId"], row["movieId"], row["rating"], row["timestamp"], number))
    if not rows:
        return fast
    columns = list(zip(*rows, strict=True))
    careful = RatingArrays(*(np.array(c, dtype) for c, dtype in zip(columns, _DTYPES, strict=True)))
    both = RatingArrays.concat([fast, careful])
    return both.take(np.argsort(both.line, kind="stable"))


def _gather(
    a: np.ndarray, begin: np.ndarray, stop: np.ndarray, width: int
) -> tuple[np.ndarray, ...]:
    """The bytes of each field as a (fields, width) array, with a mask of the real ones."""
    length = stop - begin
    offsets = np.arange(width)
    inside = offsets < length[:, None]
    index = np.where(inside, begin[:, None] + offsets, 0)
    return a[index], inside, length


def _digits(a: np.ndarray, begin: np.ndarray, stop: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Non-negative integers written with 1 to 10 digits; `ok` is False for anything else."""
    chars, inside, length = _gather(a, begin, stop, _INT_DIGITS)
    digits = chars.astype(np.int64) - _ZERO
    ok = (length >= 1) & (length <= _INT_DIGITS)
    ok &= (((digits >= 0) & (digits <= 9)) | ~inside).all(axis=1)
    power = np.clip(length[:, None] - 1 - np.arange(_INT_DIGITS), 0, 18)
    values = np.where(inside, digits * _POW10[power], 0).sum(axis=1)
    return values, ok


def _decimal(a: np.ndarray, begin: np.ndarray, stop: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Numbers like `4`, `3.5` or `2.75`: digits with at most one inner dot.

    The digits form an exact integer and the value is that integer divided by a power of ten,
    which rounds exactly like `float(text)` does.
    """
    chars, inside, length = _gather(a, begin, stop, _RATING_CHARS)
    dot = (chars == _DOT) & inside
    digit = inside & ~dot
    dots = dot.sum(axis=1)
    ok = (length >= 1) & (length <= _RATING_CHARS) & (dots <= 1)
    ok &= ~dot[:, 0] & ~(dot & (np.arange(_RATING_CHARS) == (length - 1)[:, None])).any(axis=1)
    values = chars.astype(np.int64) - _ZERO
    ok &= (((values >= 0) & (values <= 9)) | ~digit).all(axis=1)
    after = np.cumsum(digit[:, ::-1], axis=1)[:, ::-1] - 1  # digits to the right of each one
    number = np.where(digit, values * _POW10[np.clip(after, 0, None)], 0).sum(axis=1)
    position = np.where(dots > 0, dot.argmax(axis=1), length - 1)
    fraction = np.clip(length - 1 - position, 0, 18)
    return number / _POW10[fraction], ok


def keep_last_rating(ratings: RatingArrays, label: str, problems: Problems) -> RatingArrays:
    """One rating per (user, movie): a later line replaces an earlier one, which is reported."""
    if len(ratings) < 2:
        return ratings
    user, movie = ratings.user, ratings.movie
    if user.max() < 2**31 and movie.max() < 2**31 and user.min() >= 0 and movie.min() >= 0:
        order = np.argsort(user * (2**31) + movie, kind="stable")
    else:
        order = np.lexsort((ratings.line, movie, user))
    u, m = user[order], movie[order]
    last = np.ones(len(order), dtype=bool)
    last[:-1] = (u[1:] != u[:-1]) | (m[1:] != m[:-1])
    if last.all():
        return ratings
    replaced = np.flatnonzero(~last)
    for i in replaced.tolist():
        problems.add(
            label,
            int(ratings.line[order[i]]),
            f"user {int(u[i])} rates movie {int(m[i])} again on line "
            f"{int(ratings.line[order[i + 1]])}; the later rating is kept",
        )
    return ratings.take(np.sort(order[last]))
