"""Tools declared by `.cypher` files: a file becomes a validated tool; bad headers say where."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from semantic_layer.errors import GraphQueryError, ToolArgumentsError, ToolDeclarationError
from semantic_layer.session import Session
from semantic_layer.tools import build_tools
from semantic_layer.tools.header import parse_tool_file
from tests.semantic_layer.bound import bound_tools

GOOD = """\
// ---
// name: films_in_year
// description: Movies of one year and genre, most rated first.
// params:
//   year: {type: integer, description: The year, min: 1900, max: 2030}
//   genre: {type: genre, description: The genre}
//   limit: {type: integer, description: How many, default: 3, min: 1, max: 10}
// ---
MATCH (m:Movie {year: $year})-[:IN_GENRE]->(:Genre {name: $genre})
RETURN m.title AS title ORDER BY m.ratingCount DESC, m.movieId LIMIT $limit
"""


def _write(folder: Path, text: str, name: str = "tool.cypher") -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def test_a_file_becomes_a_validated_tool(tools_graph: Any, tmp_path: Path) -> None:
    _write(tmp_path, GOOD)
    tools = bound_tools(tools_graph, Session(), folders=[tmp_path])
    tool = tools["films_in_year"]
    schema = tool.input_schema
    assert schema["required"] == ["year", "genre"]
    assert schema["properties"]["limit"]["default"] == 3
    result = tool.invoke({"year": 1999, "genre": "sci-fi"})
    assert result.ok and result.data[0]["title"] == "The Matrix" and len(result.data) == 3
    assert result.queries[0].mode == "read"
    with pytest.raises(ToolArgumentsError):
        tool.invoke({"year": 1800, "genre": "Drama"})
    with pytest.raises(ToolArgumentsError):
        tool.invoke({"year": 1999, "genre": "Drama", "limit": 3, "extra": 1})


def test_shipped_declared_tools(tools: dict[str, Any]) -> None:
    nolan = tools["top_movies_by_director"].invoke({"director": "Christopher Nolan"})
    assert nolan.ok and nolan.data[0]["title"] == "The Dark Knight"
    together = tools["movies_together"].invoke(
        {"first_person": "Robert De Niro", "second_person": "Martin Scorcese"}
    )
    assert together.ok, together.message
    assert {"Casino", "Goodfellas", "Raging Bull"} <= {r["title"] for r in together.data}
    tagged = tools["most_tagged"].invoke({"tag": "PIXAR"})
    assert tagged.ok and "Toy Story" in {r["title"] for r in tagged.data}


def test_declared_tools_are_read_only_unless_they_say_write(
    tools_graph: Any, tmp_path: Path
) -> None:
    _write(tmp_path, GOOD.replace("RETURN m.title", "SET m.hacked = true RETURN m.title"))
    tool = bound_tools(tools_graph, Session(), folders=[tmp_path])["films_in_year"]
    result = tool.invoke({"year": 1999, "genre": "Drama"})
    assert not result.ok and result.kind == "error" and "rejected" in result.message
    with pytest.raises(GraphQueryError):  # the read transaction itself refuses
        tools_graph.run_file_text("MATCH (m:Movie {movieId: 1}) SET m.hacked = true RETURN m")


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ("MATCH (n) RETURN n", 1, "starts with a header"),
        ("// ---\n// name: x y\n// ---\nRETURN 1", 2, "`name` must be"),
        ("// ---\n// name: ok_name\n// ---\nRETURN 1", 1, "`description` is required"),
        (
            "// ---\n// name: ok_name\n// description: d\n// params:\n//   a: {type: text, description: d}\n// ---\nRETURN $a",
            5,
            "type must be one of",
        ),
        (
            "// ---\n// name: ok_name\n// description: d\n// params: [\n// ---\nRETURN 1",
            4,
            "not valid YAML",
        ),
        ("// ---\n// name: ok_name\n// description: d\n// ---\nRETURN $who", 1, "uses $who"),
        (
            "// ---\n// name: ok_name\n// description: d\n// color: red\n// ---\nRETURN 1",
            4,
            "unknown key",
        ),
        ("// ---\n// name: ok_name\n// description: d\nRETURN 1", 4, "starts with `//`"),
        (
            "// ---\n// name: ok_name\n// description: d\n// params:\n//   n:\n//     type: integer\n//     description: d\n//     min: ten\n// ---\nRETURN $n",
            8,
            "min must be a number",
        ),
        (
            "// ---\n// name: ok_name\n// description: d\n// params:\n//   n: {type: integer, description: d}\n// ---\nRETURN 1",
            5,
            "never uses $n",
        ),
        (
            "// ---\n// name: ok_name\n// description: d\n// mode: delete\n// ---\nRETURN 1",
            4,
            "`mode` must be",
        ),
    ],
)
def test_malformed_headers_name_the_file_and_line(
    tmp_path: Path, text: str, line: int, words: str
) -> None:
    path = _write(tmp_path, text)
    with pytest.raises(ToolDeclarationError) as caught:
        parse_tool_file(path)
    assert str(caught.value).startswith(f"{path}:{line}: ")
    assert words in str(caught.value)


def test_a_declared_tool_cannot_take_a_built_in_name(tools_graph: Any, tmp_path: Path) -> None:
    _write(tmp_path, GOOD.replace("films_in_year", "memory"))
    with pytest.raises(ToolDeclarationError, match="already exists"):
        build_tools(folders=[tmp_path])
