"""Against a live Neo4j 5 when NEO4J_URI is set (for example `docker compose up -d neo4j`).

The fixture release is tiny and imported with the batched MERGE path (the only one on Neo4j),
into whatever database NEO4J_DATABASE names: use a scratch database, the test empties it.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from data_import.importer import ImportOptions, import_release
from semantic_layer.graph_stats import graph_stats

pytestmark = [
    pytest.mark.neo4j,
    pytest.mark.skipif(not os.environ.get("NEO4J_URI"), reason="NEO4J_URI is not set"),
]

MOVIES = """movieId,title,genres
1,Toy Story (1995),Adventure|Animation|Children
2,"Matrix, The (1999)",Action|Sci-Fi
3,Heat (1995),Action|Crime
4,Nothing Listed (2001),(no genres listed)
"""
RATINGS = """userId,movieId,rating,timestamp
10,1,5.0,964982703
10,2,4.0,964982704
11,1,4.5,964982705
11,2,4.0,964982706
11,3,2.0,964982707
12,3,bad,964982708
"""
TAGS = """userId,movieId,tag,timestamp
13,2,cyberpunk,1139045764
"""


@pytest.fixture
def neo4j_graph(tmp_path: Path) -> Any:
    from semantic_layer.graph import connect
    from semantic_layer.settings import GraphSettings

    graph = connect(GraphSettings.from_env())
    graph.write("test/delete_all")
    yield graph
    graph.write("test/delete_all")
    graph.close()


def test_import_into_neo4j_gives_the_fixture_counts_twice(neo4j_graph: Any, tmp_path: Path) -> None:
    for name, text in (("movies.csv", MOVIES), ("ratings.csv", RATINGS), ("tags.csv", TAGS)):
        (tmp_path / name).write_text(text, encoding="utf-8")
    options = ImportOptions(show_progress=False)
    expected = {
        "nodes": {"Genre": 6, "Movie": 4, "User": 3},
        "relationships": {"IN_GENRE": 7, "RATED": 5, "SIMILAR": 2, "TAGGED": 1},
    }
    for _ in range(2):  # idempotent: the second run changes no count
        report = import_release(neo4j_graph, tmp_path, None, options)
        assert graph_stats(neo4j_graph) == expected
        assert [(p.file, p.line) for p in report.problems.items] == [("ratings.csv", 7)]
    [row] = neo4j_graph.read("test/movie_stats_by_id", {"movieId": 1})
    assert row == {"ratingCount": 2, "ratingAvg": 4.75, "likeCount": 2}
    similar = neo4j_graph.read("test/similar_by_id", {"movieId": 1})
    assert similar == [{"movieId": 2, "support": 2, "rank": 1}]
