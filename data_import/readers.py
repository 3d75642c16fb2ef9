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

Parser = Callable[[list[str]], dict[str, Any]]


@dataclass(frozen=True)
class CsvSpec:
    name: str
    header: tuple[str, ...]
    parse: Parser


def _int(value: str, field: str) -> int:
    try:
        return int(value)
    except ValueError:
        raise ValueError(f"{field} {value!r} is not an integer") from None


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
    genres = [g for g in _pipe_list(f[2]) if g != "(no genres listed)"]
    return {"movieId": _int(f[0], "movieId"), "raw_title": f[1].strip(), "genres": genres}


def _rating_row(f: list[str]) -> dict[str, Any]:
    return {
        "userId": _int(f[0], "userId"),
        "movieId": _int(f[1], "movieId"),
        "rating": _rating(f[2]),
        "timestamp": _int(f[3], "timestamp"),
    }


def _tag_row(f: list[str]) -> dict[str, Any]:
    if not f[2].strip():
        raise ValueError("tag is empty")
    return {
        "userId": _int(f[0], "userId"),
        "movieId": _int(f[1], "movieId"),
        "tag": f[2].strip(),
        "timestamp": _int(f[3], "timestamp"),
    }


def _link_row(f: list[str]) -> dict[str, Any]:
    return {
        "movieId": _int(f[0], "movieId"),
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
        "movieId": _int(f[0], "movieId"),
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
    with path.open(newline="", encoding="utf-8-sig", errors="replace") as handle:
        check_header(path, handle.readline(), spec)
        # MovieLens records never span lines, so each physical line is parsed on its own:
        # an unclosed quote spoils one row, never the rest of the file.
        for number, line in enumerate(handle, start=2):
            row = parse_line(line, spec, label, number, problems)
            if row is not None:
                yield number, row


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
