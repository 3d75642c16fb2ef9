"""Validated readers for the MovieLens CSV files: good rows out, bad rows reported by line."""

from __future__ import annotations

import csv
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from data_import.errors import HeaderError, SourceError
from data_import.problems import Problems
from data_import.titles import split_year
from semantic_layer.users import FIRST_APP_USER_ID

Parser = Callable[[list[str]], dict[str, Any]]


@dataclass(frozen=True)
class CsvSpec:
    name: str
    header: tuple[str, ...]
    parse: Parser


# Ids and timestamps are plain ASCII digits: no sign, no `1_0`, no other script's digits, and
# no value the graph cannot store (int64) or that would land in the app's own user ids.
MAX_ID = 2**31 - 1
MAX_INT = 2**63 - 1
_DIGITS = frozenset("0123456789")
YEARS = range(1870, 2200)


def _int(value: str, field: str, limit: int = MAX_INT) -> int:
    text = value.strip()
    if text.startswith("-") and text[1:] and set(text[1:]) <= _DIGITS:
        raise ValueError(f"{field} {text} is negative")
    if not text or not set(text) <= _DIGITS:
        raise ValueError(f"{field} {value!r} is not an integer (digits 0-9 only)")
    number = int(text)
    if number > limit:
        raise ValueError(f"{field} {text} is larger than {limit:,}")
    return number


def _user_id(value: str) -> int:
    user = _int(value, "userId")
    if user >= FIRST_APP_USER_ID:
        raise ValueError(
            f"userId {user} is in the range the app keeps for its own users "
            f"({FIRST_APP_USER_ID:,} and up); MovieLens user ids are smaller"
        )
    return user


def _rating(value: str) -> float:
    try:
        rating = float(value)
    except ValueError:
        raise ValueError(f"rating {value!r} is not a number") from None
    if not 0.5 <= rating <= 5.0:
        raise ValueError(f"rating {rating} is outside 0.5-5.0")
    return rating


def _pipe_list(value: str) -> list[str]:
    return [part.strip() for part in value.split("|") if part.strip()]


def _movie(f: list[str]) -> dict[str, Any]:
    if not f[1].strip():
        raise ValueError("title is empty")
    title, year = split_year(f[1])
    if not title:
        raise ValueError(f"title {f[1].strip()!r} has a year but no title")
    if year is not None and year not in YEARS:
        raise ValueError(f"year {year} in title {f[1].strip()!r} is not a release year")
    genres = [g for g in _pipe_list(f[2]) if g != "(no genres listed)"]
    return {"movieId": _int(f[0], "movieId", MAX_ID), "raw_title": f[1].strip(), "genres": genres}


def _rating_row(f: list[str]) -> dict[str, Any]:
    return {
        "userId": _user_id(f[0]),
        "movieId": _int(f[1], "movieId", MAX_ID),
        "rating": _rating(f[2]),
        "timestamp": _int(f[3], "timestamp"),
    }


def _tag_row(f: list[str]) -> dict[str, Any]:
    if not f[2].strip():
        raise ValueError("tag is empty")
    return {
        "userId": _user_id(f[0]),
        "movieId": _int(f[1], "movieId", MAX_ID),
        "tag": f[2].strip(),
        "timestamp": _int(f[3], "timestamp"),
    }


def _link_row(f: list[str]) -> dict[str, Any]:
    return {
        "movieId": _int(f[0], "movieId", MAX_ID),
        "imdbId": f[1].strip() or None,
        "tmdbId": _int(f[2], "tmdbId") if f[2].strip() else None,
    }


def _enriched_row(f: list[str]) -> dict[str, Any]:
    rating = f[6].strip()
    try:
        imdb = float(rating) if rating else None
    except ValueError:
        raise ValueError(f"imdbRating {rating!r} is not a number") from None
    return {
        "movieId": _int(f[0], "movieId", MAX_ID),
        "released": f[1].strip() or None,
        "actors": _pipe_list(f[3]),
        "directors": _pipe_list(f[4]),
        "imdbRating": imdb,
    }


MOVIES = CsvSpec("movies.csv", ("movieId", "title", "genres"), _movie)
RATINGS = CsvSpec("ratings.csv", ("userId", "movieId", "rating", "timestamp"), _rating_row)
TAGS = CsvSpec("tags.csv", ("userId", "movieId", "tag", "timestamp"), _tag_row)
LINKS = CsvSpec("links.csv", ("movieId", "imdbId", "tmdbId"), _link_row)
ENRICHED = CsvSpec(
    "enriched movies",
    ("movieId", "released", "title", "actors", "director", "genres", "imdbRating"),
    _enriched_row,
)


def read_rows(
    path: Path, spec: CsvSpec, problems: Problems
) -> Iterator[tuple[int, dict[str, Any]]]:
    """Yield (line, row) for `path`; a malformed row goes to `problems` with its line number."""
    if not path.is_file():
        raise SourceError(
            f"Missing {path}: expected {spec.name} with columns {','.join(spec.header)}."
        )
    label = path.name
    with path.open("rb") as handle:
        check_header(path, handle.readline().decode("utf-8-sig", "replace"), spec)
        # MovieLens records never span lines, so each physical line is parsed on its own:
        # an unclosed quote spoils one row, never the rest of the file.
        for number, raw in enumerate(handle, start=2):
            line = decode_line(raw, label, number, problems)
            row = None if line is None else parse_line(line, spec, label, number, problems)
            if row is not None:
                yield number, row


def decode_line(raw: bytes, label: str, number: int, problems: Problems) -> str | None:
    """The line as text, or None when it is not UTF-8 (reported: MovieLens files are UTF-8, and
    a Latin-1 byte turned into U+FFFD would be stored as a wrong title)."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as e:
        problems.add(label, number, f"byte 0x{raw[e.start]:02X} at column {e.start + 1} is not "
                     "UTF-8 (save the file as UTF-8)")  # fmt: skip
        return None


def check_header(path: Path, header: str, spec: CsvSpec) -> None:
    """Stop with a sentence when the first line of `path` is not `spec`'s header."""
    names = tuple(h.strip() for h in _split(header)) if header.strip() else ()
    if names != spec.header:
        raise HeaderError(
            f"{path} has header {','.join(names) or '(empty file)'}; "
            f"expected {','.join(spec.header)}."
        )


def parse_line(
    line: str, spec: CsvSpec, label: str, number: int, problems: Problems
) -> dict[str, Any] | None:
    """One validated row, or None (a blank line, or a bad one reported to `problems`)."""
    if not line.strip():
        return None
    if "\x00" in line:
        problems.add(label, number, "the line contains a NUL character")
        return None
    try:
        fields = _split(line)
    except csv.Error as e:
        problems.add(label, number, f"malformed CSV ({e})")
        return None
    if len(fields) != len(spec.header):
        problems.add(label, number, f"expected {len(spec.header)} fields, found {len(fields)}")
        return None
    try:
        return spec.parse(fields)
    except ValueError as e:
        problems.add(label, number, str(e))
        return None


def _split(line: str) -> list[str]:
    line = line.rstrip("\r\n")
    if '"' not in line:
        return line.split(",")
    return next(csv.reader([line], strict=True))


def count_lines(path: Path) -> int:
    """Data rows in a file (lines minus the header), for progress bars and the bulk decision.

    Counted once per file version: the import asks twice for ratings.csv (GBs at 25M rows)."""
    stat = path.stat()
    return _count_lines(path.resolve(), stat.st_size, stat.st_mtime_ns)


@lru_cache(maxsize=32)
def _count_lines(path: Path, size: int, mtime_ns: int) -> int:
    with path.open("rb") as handle:
        lines = sum(chunk.count(b"\n") for chunk in iter(lambda: handle.read(1 << 20), b""))
    return max(lines - 1, 0)
