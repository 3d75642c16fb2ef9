"""The import against the real ml-latest-small + enriched files, with counts the files imply."""

from __future__ import annotations

import csv
import shutil
import unicodedata
from pathlib import Path
from typing import Any

import pytest

from data_import.errors import HeaderError, SourceError
from data_import.importer import ImportOptions, import_release
from data_import.titles import alias_rows, split_title
from semantic_layer.graph_stats import graph_stats

QUIET = ImportOptions(show_progress=False)


def _rows(path: Path) -> list[dict[str, str]]:
    with path.open(newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def expected_counts(release: Path, enriched: Path) -> dict[str, dict[str, int]]:
    """Counts computed straight from the CSV files, independently of the importer."""
    movies = _rows(release / "movies.csv")
    ratings = _rows(release / "ratings.csv")
    tags = _rows(release / "tags.csv")
    ids = {m["movieId"] for m in movies}
    genres = {g for m in movies for g in m["genres"].split("|")} - {"(no genres listed)"}
    in_genre = sum(len(set(m["genres"].split("|")) - {"(no genres listed)"}) for m in movies)
    matching = [r for r in _rows(enriched) if r["movieId"] in ids]

    def names(value: str) -> set[str]:
        """One key per person: 'J. F. Lawton' and 'J.F. Lawton' are one director."""
        return {_person_key(n) for n in value.split("|") if n.strip()}

    acted = sum(len(names(r["actors"])) for r in matching)
    directed = sum(len(names(r["director"])) for r in matching)
    people = set().union(*(names(r["actors"]) | names(r["director"]) for r in matching))
    tag_movies = {(t["tag"].strip().lower(), t["movieId"]) for t in tags}  # derived Tag summary
    return {
        "nodes": {
            "Movie": len(movies),
            "User": len({r["userId"] for r in ratings} | {t["userId"] for t in tags}),
            "Genre": len(genres),
            "Person": len(people),
            "Tag": len({name for name, _ in tag_movies}),
        },
        "relationships": {
            "RATED": len(ratings),
            "TAGGED": len(tags),
            "IN_GENRE": in_genre,
            "ACTED_IN": acted,
            "DIRECTED": directed,
            "TAGS": len(tag_movies),
        },
    }


def _person_key(name: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFKD", name.casefold()) if c.isalnum())


def test_import_gives_exactly_the_counts_the_files_imply(
    movie_graph: Any, ml_small: Path, enriched_csv: Path
) -> None:
    expected = expected_counts(ml_small, enriched_csv)
    assert expected["nodes"]["Movie"] == 9742 and expected["nodes"]["User"] == 610
    assert expected["relationships"]["RATED"] == 100836 and expected["nodes"]["Genre"] == 19
    assert expected["nodes"]["Person"] == 14517  # 14,520 spellings, three people twice
    assert expected["nodes"]["Tag"] == 1475
    actual = graph_stats(movie_graph)
    assert actual["relationships"].pop("SIMILAR") > 0  # derived data: see test_neighbours.py
    aliases = sum(len(alias_rows(split_title(m["title"]))) for m in _rows(ml_small / "movies.csv"))
    assert actual["nodes"].pop("Alias") == actual["relationships"].pop("ALIAS_OF") == aliases
    assert actual == expected


def test_titles_years_and_ratings_are_stored(movie_graph: Any) -> None:
    rows = movie_graph.read("test/movie_by_id", {"movieId": 2571})
    assert rows == [
        {
            "title": "The Matrix",
            "year": 1999,
            "originalTitle": "Matrix, The (1999)",
            "imdbRating": 8.7,
            "genres": ["Action", "Sci-Fi", "Thriller"],
            "directors": ["Lana Wachowski", "Lilly Wachowski"],
        }
    ]


@pytest.mark.parametrize("bulk", [False, True], ids=["merge", "bulk"])
def test_second_import_changes_no_count(
    writable_graph: Any, ml_small: Path, enriched_csv: Path, bulk: bool
) -> None:
    before = graph_stats(writable_graph)
    options = ImportOptions(show_progress=False, bulk=bulk)
    report = import_release(writable_graph, ml_small, enriched_csv, options)
    assert graph_stats(writable_graph) == before
    assert report.problems.total == 0
    assert len(report.unmatched_enrichment) == 1968
    written = {p.name: p.details for p in report.phases}
    assert written["ratings"]["RATED"] == 100_836 and written["movies"]["Movie"] == 9742


def test_broken_rows_are_reported_by_line_and_good_rows_imported(
    tmp_path: Path, writable_graph: Any
) -> None:
    release = tmp_path / "broken"
    release.mkdir()
    (release / "movies.csv").write_text(
        "movieId,title,genres\n"
        "1,Toy Story (1995),Adventure|Animation\n"
        "two,Broken Id (1999),Drama\n"
        '3,"Unclosed, Title (2000),Comedy\n'
        "4,Heat (1995),Action|Crime|Thriller\n"
        "5,Too,Many,Fields\n",
        encoding="utf-8",
    )
    (release / "ratings.csv").write_text(
        "userId,movieId,rating,timestamp\n"
        "900001,1,4.0,964982703\n"
        "900001,4,9.0,964982703\n"
        "900002,4,3.5,not-a-time\n"
        "900002,4,3.5,964982224\n"
        "900003,77777,4.0,964982224\n",
        encoding="utf-8",
    )
    writable_graph.write("test/delete_all")
    report = import_release(writable_graph, release, None, QUIET)
    problems = {(p.file, p.line) for p in report.problems.items}
    assert ("movies.csv", 3) in problems  # 'two' is not an integer
    assert ("movies.csv", 6) in problems  # too many fields
    assert ("ratings.csv", 3) in problems  # rating 9.0 out of range
    assert ("ratings.csv", 4) in problems  # bad timestamp
    assert ("ratings.csv", 6) in problems  # unknown movie
    assert ("movies.csv", 4) in problems  # unclosed quote spoils its own line only
    stats = graph_stats(writable_graph)
    assert stats["relationships"]["RATED"] == 2
    assert stats["nodes"]["User"] == 2
    assert stats["nodes"]["Movie"] == 2  # Toy Story and Heat
    reasons = " ".join(p.reason for p in report.problems.items)
    assert "not an integer" in reasons and "outside 0.5-5.0" in reasons


def test_wrong_header_stops_with_a_sentence(tmp_path: Path, writable_graph: Any) -> None:
    (tmp_path / "movies.csv").write_text("id,name\n1,x\n", encoding="utf-8")
    (tmp_path / "ratings.csv").write_text("userId,movieId,rating,timestamp\n", encoding="utf-8")
    with pytest.raises(HeaderError, match="expected movieId,title,genres"):
        import_release(writable_graph, tmp_path, None, QUIET)


def test_missing_ratings_file_stops_with_a_sentence(tmp_path: Path, writable_graph: Any) -> None:
    shutil.copy(Path(__file__).parent / "movies_sample.csv", tmp_path / "movies.csv")
    with pytest.raises(SourceError, match=r"ratings\.csv"):
        import_release(writable_graph, tmp_path, None, QUIET)


def test_both_write_paths_store_the_same_aliases_and_drop_stale_ones(
    movie_graph: Any, writable_graph: Any, ml_small: Path, enriched_csv: Path
) -> None:
    """`movie_graph` was built by GRAPH.BULK; MERGE over a copy keeps the same aliases and
    deletes one its title no longer gives."""
    bulk = writable_graph.read("test/aliases")
    assert {"movieId": 47, "title": "Se7en", "titleNorm": "se7en"} in bulk
    stale = {"movieId": 47, "title": "Old Name", "titleNorm": "old name"}
    writable_graph.write("import/aliases", {"rows": [stale]})
    options = ImportOptions(show_progress=False, bulk=False)
    report = import_release(writable_graph, ml_small, enriched_csv, options)
    assert writable_graph.read("test/aliases") == bulk == movie_graph.read("test/aliases")
    assert {p.name: p.details for p in report.phases}["movies"]["Alias"] == len(bulk)
