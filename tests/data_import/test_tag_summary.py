"""The derived Tag summary against tags.csv, and the tag queries that read it against the
queries that scanned every TAGGED edge before it existed."""

from __future__ import annotations

import csv
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from data_import.importer import ImportOptions, import_release
from semantic_layer.users import new_user_id

# The queries as they were before the summary: every TAGGED edge, case folded when read.
OLD_MOST_TAGGED = """
MATCH (:User)-[t:TAGGED]->(m:Movie)
WHERE toLower(t.tag) = toLower($tag)
WITH m, count(*) AS uses
RETURN m.title AS title, m.year AS year, uses, round(m.ratingAvg * 100) / 100.0 AS ratingAvg
ORDER BY uses DESC, m.ratingCount DESC, m.movieId
LIMIT $limit
"""
OLD_MOVIE_TAGS = """
MATCH (:Movie {movieId: $movieId})<-[t:TAGGED]-(:User)
WITH toLower(t.tag) AS tag, count(*) AS uses
RETURN tag, uses
ORDER BY uses DESC, tag
LIMIT $limit
"""
LIMIT = 50


def _csv(path: Path) -> list[dict[str, str]]:
    with path.open(newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


@pytest.fixture(scope="module")
def tag_counts(ml_small: Path) -> Counter[tuple[str, int]]:
    """(lowercased tag, movieId) -> users who gave the movie that tag, from tags.csv alone."""
    edges = {
        (t["userId"], int(t["movieId"]), t["tag"].strip()) for t in _csv(ml_small / "tags.csv")
    }
    return Counter((tag.lower(), movie) for _, movie, tag in edges)


@pytest.fixture(scope="module")
def rating_counts(ml_small: Path) -> Counter[int]:
    return Counter(int(r["movieId"]) for r in _csv(ml_small / "ratings.csv"))


def _summary(graph: Any) -> Counter[tuple[str, int]]:
    rows = graph.run_file_text(
        "MATCH (t:Tag)-[s:TAGS]->(m:Movie) RETURN t.name AS name, m.movieId AS movieId, "
        "s.count AS count"
    )
    return Counter({(r["name"], r["movieId"]): r["count"] for r in rows})


def test_the_summary_counts_every_tag_group_of_tags_csv(
    movie_graph: Any, tag_counts: Counter[tuple[str, int]]
) -> None:
    assert _summary(movie_graph) == tag_counts
    assert len({name for name, _ in tag_counts}) == 1475
    names = [r["name"] for r in movie_graph.run_file_text("MATCH (t:Tag) RETURN t.name AS name")]
    assert len(names) == len(set(names)) == 1475


def test_most_tagged_matches_tags_csv_for_every_tag_group(
    movie_graph: Any, tag_counts: Counter[tuple[str, int]], rating_counts: Counter[int]
) -> None:
    by_name: dict[str, list[tuple[int, int]]] = {}
    for (name, movie), uses in tag_counts.items():
        by_name.setdefault(name, []).append((movie, uses))
    for name, movies in by_name.items():
        movies.sort(key=lambda mu: (-mu[1], -rating_counts[mu[0]], mu[0]))
        expected = [(movie_title(movie_graph, m), u) for m, u in movies[:LIMIT]]
        rows = movie_graph.read("tools/most_tagged", {"tag": name.upper(), "limit": LIMIT})
        assert [(r["title"], r["uses"]) for r in rows] == expected, name


def movie_title(graph: Any, movie_id: int) -> str:
    return str(graph.read("test/movie_by_id", {"movieId": movie_id})[0]["title"])


def test_tag_queries_give_what_the_tagged_scan_gave(
    movie_graph: Any, tag_counts: Counter[tuple[str, int]]
) -> None:
    """The groups whose members differ only by case, the biggest groups, and every movie."""
    tags = movie_graph.run_file_text("MATCH ()-[t:TAGGED]->() RETURN DISTINCT t.tag AS tag")
    spellings = Counter(r["tag"].lower() for r in tags)
    mixed = [name for name, n in spellings.items() if n > 1]
    assert len(mixed) == 111 and {"funny", "twist ending", "will ferrell"} <= set(mixed)
    biggest = [name for name, _ in Counter(n for n, _ in tag_counts.elements()).most_common(40)]
    for tag in [*mixed, *biggest, "Leonardo DiCaprio", "PIXAR", "no such tag"]:
        params = {"tag": tag, "limit": LIMIT}
        assert movie_graph.read("tools/most_tagged", params) == movie_graph.run_file_text(
            OLD_MOST_TAGGED, params
        ), tag
    for movie in [*sorted({m for _, m in tag_counts}), 1, 2571, 999_999]:
        params = {"movieId": movie, "limit": 10}
        assert movie_graph.read("info/movie_tags", params) == movie_graph.run_file_text(
            OLD_MOVIE_TAGS, params
        ), movie


@pytest.mark.parametrize("bulk", [False, True], ids=["merge", "bulk"])
def test_a_second_import_keeps_the_summary_and_counts_app_users_tags(
    writable_graph: Any,
    ml_small: Path,
    enriched_csv: Path,
    tag_counts: Counter[tuple[str, int]],
    bulk: bool,
) -> None:
    user = new_user_id(writable_graph)
    tag = {"userId": user, "movieId": 1, "tag": " Pixar ", "timestamp": 1_700_000_000}
    writable_graph.write("import/tags", {"rows": [tag]})

    import_release(
        writable_graph, ml_small, enriched_csv, ImportOptions(show_progress=False, bulk=bulk)
    )

    assert _summary(writable_graph) == tag_counts + Counter({("pixar", 1): 1})
