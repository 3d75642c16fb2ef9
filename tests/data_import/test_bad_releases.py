"""Bad releases are reported row by row or refused with a sentence, never a traceback or a
silent change (issue 11, findings 7 and 9)."""

from __future__ import annotations

import zipfile
from pathlib import Path
from typing import Any

import pytest

from data_import.errors import SourceError
from data_import.importer import ImportOptions, import_release
from data_import.problems import Problems
from data_import.rating_arrays import read_ratings
from data_import.readers import MOVIES, RATINGS, TAGS, read_rows
from data_import.source import resolve_release
from semantic_layer.graph_stats import graph_stats

QUIET = ImportOptions(show_progress=False)
MOVIES_HEADER = "movieId,title,genres\n"
RATINGS_HEADER = "userId,movieId,rating,timestamp\n"


def _reasons(problems: Problems) -> dict[int, str]:
    return {p.line: p.reason for p in problems.items}


def _ratings(tmp_path: Path, body: str, encoding: str = "utf-8") -> tuple[Any, dict[int, str]]:
    path = tmp_path / "ratings.csv"
    path.write_bytes((RATINGS_HEADER + body).encode(encoding))
    problems = Problems()
    arrays = read_ratings(path, problems)
    return arrays, _reasons(problems)


def test_ids_are_plain_digits_in_range_and_outside_the_app_users(tmp_path: Path) -> None:
    arrays, reasons = _ratings(
        tmp_path,
        "1,1,4.0,964982703\n"
        "12345678901234567890,1,4.0,964982703\n"  # 20 digits: was OverflowError
        "2,98765432109876543210,4.0,964982703\n"
        "3,1,4.0,123456789012345678901\n"
        "1_0,1,4.0,964982703\n"  # int() reads 10
        "\u0661\u0662,1,4.0,964982703\n"  # Arabic-Indic digits: int() reads 12
        "-5,1,4.0,964982703\n"
        "4,-1,4.0,964982703\n"
        "10000000,1,4.0,964982703\n"  # the app's first user id
        "9999999,2,4.0,964982703\n",
    )
    assert arrays.user.tolist() == [1, 9_999_999]
    assert "larger than" in reasons[3] and "userId" in reasons[3]
    assert "movieId" in reasons[4] and "larger than" in reasons[4]
    assert "timestamp" in reasons[5] and "larger than" in reasons[5]
    assert "not an integer" in reasons[6] and "not an integer" in reasons[7]
    assert reasons[8] == "userId -5 is negative" and reasons[9] == "movieId -1 is negative"
    assert "range the app keeps for its own users" in reasons[10]


def test_tags_refuse_app_user_ids_too(tmp_path: Path) -> None:
    path = tmp_path / "tags.csv"
    path.write_text("userId,movieId,tag,timestamp\n10000001,1,funny,1\n2,1,dark,1\n",
                    encoding="utf-8")  # fmt: skip
    problems = Problems()
    rows = [row["userId"] for _, row in read_rows(path, TAGS, problems)]
    assert rows == [2] and "own users" in _reasons(problems)[2]


def test_latin1_bytes_and_nul_are_reported_by_line(tmp_path: Path) -> None:
    path = tmp_path / "movies.csv"
    path.write_bytes(
        MOVIES_HEADER.encode()
        + "1,Amélie (2001),Comedy\n".encode()
        + "2,Am\xe9lie (2001),Comedy\n".encode("latin-1")
        + b"3,Heat\x00 (1995),Action\n"
    )
    problems = Problems()
    rows = {row["movieId"]: row["raw_title"] for _, row in read_rows(path, MOVIES, problems)}
    assert rows == {1: "Amélie (2001)"}
    reasons = _reasons(problems)
    assert "0xE9" in reasons[3] and "UTF-8" in reasons[3] and "NUL" in reasons[4]
    arrays, reasons = _ratings(tmp_path, "1,1,4.0,1\n1,2\xe9,4.0,1\n1,3,4.0,1\x00\n", "latin-1")
    assert arrays.movie.tolist() == [1] and "UTF-8" in reasons[3] and "NUL" in reasons[4]


def test_empty_titles_and_impossible_years_are_reported(tmp_path: Path) -> None:
    path = tmp_path / "movies.csv"
    path.write_text(
        MOVIES_HEADER + "1,(1995),Drama\n2,Zero (0000),Drama\n3,Fine (1995),Drama\n",
        encoding="utf-8",
    )
    problems = Problems()
    assert [row["movieId"] for _, row in read_rows(path, MOVIES, problems)] == [3]
    reasons = _reasons(problems)
    assert "no title" in reasons[2] and "year 0" in reasons[3]


def test_a_release_with_bad_rows_imports_the_rest_twice_alike(
    tmp_path: Path, writable_graph: Any
) -> None:
    release = tmp_path / "bad"
    release.mkdir()
    (release / "movies.csv").write_bytes(
        MOVIES_HEADER.encode()
        + b"1,Toy Story (1995),Animation\n"
        + b"1,Toy Story again (1995),Animation\n"  # duplicate movieId
        + b"6,Heat\x00 (1995),Action\n"
        + b"7,(1995),Drama\n"
    )
    (release / "ratings.csv").write_text(
        RATINGS_HEADER + "1,1,4.0,1\n10000000,1,5.0,1\n12345678901234567890,1,3.0,1\n",
        encoding="utf-8",
    )
    writable_graph.write("test/delete_all")
    for _ in range(2):  # a NUL in a title used to break the second run
        report = import_release(writable_graph, release, None, QUIET)
        where = {(p.file, p.line) for p in report.problems.items}
        assert where == {("movies.csv", 3), ("movies.csv", 4), ("movies.csv", 5),
                         ("ratings.csv", 3), ("ratings.csv", 4)}  # fmt: skip
        assert "appears again (first on line 2)" in str(report.problems.items[0])
    stats = graph_stats(writable_graph)
    assert stats["nodes"]["Movie"] == 1 and stats["relationships"]["RATED"] == 1
    assert writable_graph.read("test/movie_by_id", {"movieId": 1})[0]["title"] == "Toy Story"


def test_a_damaged_zip_is_named_as_such(tmp_path: Path) -> None:
    archive = tmp_path / "ml-tiny.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("ml-tiny/movies.csv", MOVIES_HEADER + "1,Toy Story (1995),Animation\n" * 200)
        zf.writestr("ml-tiny/ratings.csv", RATINGS_HEADER + "1,1,4.0,1\n" * 200)
    data = bytearray(archive.read_bytes())
    corrupt = tmp_path / "corrupt.zip"
    corrupt.write_bytes(
        bytes(data[:60]) + bytes(b ^ 0x5A for b in data[60:120]) + bytes(data[120:])
    )
    with pytest.raises(SourceError, match=r"not a readable zip file.*download it again"):
        resolve_release(str(corrupt), tmp_path / "cache")
    assert not list((tmp_path / "cache").rglob("*.tmp"))
    truncated = tmp_path / "truncated.zip"
    truncated.write_bytes(bytes(data[: len(data) // 2]))
    with pytest.raises(SourceError, match="damaged zip file"):
        resolve_release(str(truncated), tmp_path / "cache")


def test_ratings_spec_is_unchanged_for_good_rows(tmp_path: Path) -> None:
    arrays, reasons = _ratings(tmp_path, "1,1,4.0,964982703\r\n2,3,0.5,0\n")
    assert reasons == {} and arrays.user.tolist() == [1, 2] and arrays.timestamp.tolist() == [
        964982703, 0,
    ]  # fmt: skip
    assert RATINGS.header == ("userId", "movieId", "rating", "timestamp")
