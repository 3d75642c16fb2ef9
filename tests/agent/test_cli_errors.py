"""`movieagent ask` when a piece is missing: one sentence that says what to do, exit status 1.

These run the real wiring (settings, LLM backend, embedded graph) on an empty data directory.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

import agent.cli
from agent.llm.tgi import TGILLM
from agent.settings import LLMSettings
from movieagent.cli import app

UNREACHABLE = "tgi+http://127.0.0.1:9"  # the discard port: nothing listens on loopback


@pytest.fixture(autouse=True)
def empty_data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for var in ("MOVIEAGENT_LLM", "NEO4J_URI", "MOVIEAGENT_GRAPH"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("MOVIEAGENT_DATA_DIR", str(tmp_path))
    return tmp_path


def ask(*args: str) -> Result:
    return CliRunner().invoke(app, ["ask", "Who directed Heat?", *args])


def one_sentence_exit(result: Result, code: int = 1) -> str:
    assert result.exit_code == code, result.output
    assert isinstance(result.exception, SystemExit)  # a clean exit, not a crash
    assert "Traceback" not in result.output
    assert result.stdout == ""
    return " ".join(result.stderr.split())  # rich may wrap; compare the words


def test_an_empty_graph_says_to_import() -> None:
    # an in-process model that does not exist: it is not even loaded while the graph is empty
    stderr = one_sentence_exit(ask("--llm", "llamacpp:/nowhere/model.gguf"))
    assert "holds no movies yet: run `movieagent import`" in stderr
    assert stderr.count("error:") == 1


def test_an_unreachable_llm_says_what_to_start() -> None:
    stderr = one_sentence_exit(ask("--llm", UNREACHABLE))
    assert "nothing answers at http://127.0.0.1:9: start text-generation-inference" in stderr
    assert "movieagent import" in stderr  # the empty graph is reported as well
    assert stderr.count("error:") == 2


def test_an_unreachable_llm_over_a_loaded_graph(
    monkeypatch: pytest.MonkeyPatch, movie_graph: Any
) -> None:
    @contextmanager
    def services(spec: str | None) -> Iterator[tuple[LLMSettings, TGILLM, Any]]:
        settings = LLMSettings.from_env(spec=spec)
        yield settings, TGILLM(settings.url or ""), movie_graph

    monkeypatch.setattr(agent.cli, "_services", services)
    stderr = one_sentence_exit(ask("--llm", UNREACHABLE))
    assert stderr.count("error:") == 1
    assert "nothing answers at http://127.0.0.1:9: start text-generation-inference" in stderr


@pytest.mark.parametrize(
    ("spec", "sentence"),
    [
        ("gpt4", "MOVIEAGENT_LLM='gpt4' is not an LLM spec: use tgi+http://HOST:PORT"),
        ("tgi+localhost:8080", "after 'tgi+' comes an http(s) URL"),
    ],
)
def test_a_malformed_llm_value_prints_the_settings_error(spec: str, sentence: str) -> None:
    stderr = one_sentence_exit(ask("--llm", spec))
    assert sentence in stderr
    assert stderr.count("error:") == 1


def test_a_malformed_timeout_prints_the_settings_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MOVIEAGENT_LLM_TIMEOUT", "soon")
    stderr = one_sentence_exit(ask("--llm", UNREACHABLE))
    assert "MOVIEAGENT_LLM_TIMEOUT='soon' is not a number." in stderr


def test_chat_checks_before_the_first_question() -> None:
    result = CliRunner().invoke(
        app, ["chat", "--llm", "llamacpp:/nowhere/model.gguf"], input="hi\n"
    )
    stderr = one_sentence_exit(result)
    assert "movieagent import" in stderr


def test_user_id_zero_is_not_a_user() -> None:
    result = ask("--user-id", "0")
    assert result.exit_code == 2
    assert "--user-id" in result.stderr
