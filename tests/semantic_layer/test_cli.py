"""`movieagent tools` and `movieagent tool NAME` over the test graph."""

from __future__ import annotations

import json
from contextlib import contextmanager
from typing import Any

import pytest
from typer.testing import CliRunner

from movieagent.cli import app


@pytest.fixture
def cli(tools_graph: Any, monkeypatch: pytest.MonkeyPatch) -> CliRunner:
    @contextmanager
    def shared() -> Any:
        yield tools_graph  # the session's graph, not closed by the command

    monkeypatch.setattr("semantic_layer.graph.connect", shared)
    return CliRunner()


def test_tools_json_lists_every_tool_with_its_schema(cli: CliRunner) -> None:
    result = cli.invoke(app, ["tools", "--json"])
    assert result.exit_code == 0, result.output
    tools = {t["name"]: t for t in json.loads(result.stdout)}
    assert {"recommender", "film_facts", "memory", "smalltalk", "movies_together"} <= set(tools)
    assert tools["memory"]["schema"]["properties"]["rating"]["maximum"] == 5


def test_tool_runs_one_tool(cli: CliRunner) -> None:
    result = cli.invoke(app, ["tool", "film_facts", "--args", '{"entity": "Heat"}', "--json"])
    assert result.exit_code == 0, result.output
    body = json.loads(result.stdout)
    assert body["data"]["directors"] == ["Michael Mann"] and body["queries"]


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["tool", "film_facts", "--args", "{nope"], "not valid JSON"),
        (["tool", "film_facts", "--args", "[1]"], "must be a JSON object"),
        (["tool", "recommender", "--args", '{"genres": ["Bollywood"]}'], "invalid arguments"),
        (["tool", "nosuch"], "no tool 'nosuch'"),
    ],
)
def test_bad_input_is_a_clear_message_and_exit_1(
    cli: CliRunner, args: list[str], words: str
) -> None:
    result = cli.invoke(app, args)
    assert result.exit_code == 1
    assert words in result.output.replace("\n", " ")


def test_tool_on_a_graph_never_imported_says_to_import(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("NEO4J_URI", raising=False)
    monkeypatch.setenv("MOVIEAGENT_DATA_DIR", str(tmp_path))
    result = CliRunner().invoke(app, ["tool", "film_facts", "--args", '{"entity": "Heat"}'])
    assert result.exit_code == 1
    assert "run `movieagent import`" in result.output
    assert "empty key" not in result.output


def test_stats_on_a_graph_never_imported_says_to_import(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("NEO4J_URI", raising=False)
    monkeypatch.setenv("MOVIEAGENT_DATA_DIR", str(tmp_path))
    result = CliRunner().invoke(app, ["stats", "--json"])
    assert result.exit_code == 0
    assert json.loads(result.stdout) == {"nodes": {}, "relationships": {}}
    plain = CliRunner().invoke(app, ["stats"])
    assert "run `movieagent import`" in plain.output


@pytest.fixture
def writable_cli(writable: Any, monkeypatch: pytest.MonkeyPatch) -> CliRunner:
    @contextmanager
    def private() -> Any:
        yield writable

    monkeypatch.setattr("semantic_layer.graph.connect", private)
    return CliRunner()


@pytest.mark.parametrize(
    ("user_id", "words"),
    [
        ("-5", "never negative"),
        ("9223372036854775808", "too large"),
        ("10004242", "never handed out"),
        ("999999", "not in the graph"),
    ],
)
def test_tool_user_ids_go_through_the_policy(
    writable_cli: CliRunner, writable: Any, user_id: str, words: str
) -> None:
    rate = ["tool", "memory", "--args", '{"movie": "Heat", "rating": 5}', "--user-id", user_id]
    result = writable_cli.invoke(app, rate)
    assert result.exit_code == 2, result.output
    assert words in " ".join(result.output.split())
    assert "Traceback" not in result.output
    if int(user_id) < 2**63:  # nothing was stored under the id (or an alias of it)
        assert writable.read("memory/ratings", {"userId": int(user_id), "limit": 5}) == []


def test_tool_as_a_movielens_user_writes_nothing_without_admin(
    writable_cli: CliRunner, writable: Any
) -> None:
    rate = ["tool", "memory", "--args", '{"movie": "Heat", "rating": 1}', "--user-id", "1"]
    before = writable.read("memory/ratings", {"userId": 1, "limit": 1000})
    result = writable_cli.invoke(app, rate)
    assert result.exit_code == 1
    assert "read-only demo" in " ".join(result.output.split())
    assert writable.read("memory/ratings", {"userId": 1, "limit": 1000}) == before
    assert writable_cli.invoke(app, [*rate, "--as-admin"]).exit_code == 0


def test_a_lone_surrogate_in_the_arguments_is_a_sentence(cli: CliRunner) -> None:
    args = '{"entity": "\\ud800Heat", "entity_type": "person"}'  # JSON escape: a lone surrogate
    result = cli.invoke(app, ["tool", "film_facts", "--args", args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    assert result.output.strip()
