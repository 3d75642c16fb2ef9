"""The Neo4j Cypher syntax check rejects broken queries and accepts the ones we write."""

from __future__ import annotations

from pathlib import Path

import pytest

from devtools.syntax_check import check_text, check_tree, main

HERE = Path("query.cypher")


@pytest.mark.parametrize(
    "query",
    [
        "MATCH (n RETURN n",
        "MATCH (n) RETRUN n",
        "MATCH (n:Movie {movieId: $id}) RETURN n.title AS",
        "UNWIND $rows AS r MERGE (m:Movie {movieId: r.movieId}) SET m.title =",
        "MATCH (a)-[:SIMILAR]->(b) WHERE a.x = = 1 RETURN b",
        "CREATE CONSTRAINT movie_id IF NOT EXISTS FOR (n:Movie) REQUIRES n.movieId IS UNIQUE",
        "CREATE FULLTEXT INDEX movie_title FOR (n:Movie) ON [n.title]",
    ],
)
def test_broken_cypher_is_rejected(query: str) -> None:
    assert check_text(query, HERE)


@pytest.mark.parametrize(
    "query",
    [
        "MATCH (m:Movie {movieId: $movieId}) RETURN m LIMIT $limit",
        "MATCH (m) WITH m, count(*) AS c WITH m ORDER BY m.title RETURN m",
        "MATCH (p)-[:ACTED_IN|DIRECTED]->(m) RETURN p, m",
        "// name: demo\n// description: a declared tool\nMATCH (m:Movie) RETURN m.title",
        "CREATE CONSTRAINT movie_id IF NOT EXISTS FOR (n:Movie) REQUIRE n.movieId IS UNIQUE",
        "CREATE FULLTEXT INDEX movie_title IF NOT EXISTS FOR (n:Movie) ON EACH [n.title]",
        "CREATE INDEX movie_year IF NOT EXISTS FOR (n:Movie) ON (n.year)",
    ],
)
def test_valid_cypher_is_accepted(query: str) -> None:
    assert check_text(query, HERE) == []


def test_errors_name_file_and_line_and_exit_non_zero(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "good.cypher").write_text("MATCH (n) RETURN n\n")
    (tmp_path / "bad.cypher").write_text("// header\nMATCH (n)\nRETRUN n\n")
    (tmp_path / "falkordb").mkdir()
    (tmp_path / "falkordb" / "dialect.cypher").write_text("CALL db.idx.fulltext.createNodeIndex(")
    assert main([str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert f"{tmp_path / 'bad.cypher'}:3:" in out
    assert "2 Cypher files checked, 1 problems" in out


def test_the_projects_cypher_files_pass() -> None:
    root = Path(__file__).resolve().parent.parent / "cypher"
    count, problems = check_tree(root)
    assert count > 10
    assert problems == []
