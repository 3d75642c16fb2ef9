"""`movieagent ask` says once, before answering, when replies will not be grammar-constrained."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from typer.testing import CliRunner

import agent.cli
from agent.llm.base import LLM
from agent.llm.factory import build_llm
from agent.settings import LLMSettings
from movieagent.cli import app
from tests.agent.fakes import final
from tests.agent.tgi_server import VLLMServer


@pytest.fixture
def vllm_server() -> Iterator[VLLMServer]:
    server = VLLMServer().start()
    yield server
    server.stop()


@pytest.fixture
def loaded_graph(monkeypatch: pytest.MonkeyPatch, movie_graph: Any) -> None:
    @contextmanager
    def services(spec: str | None) -> Iterator[tuple[LLMSettings, LLM, Any]]:
        settings = LLMSettings.from_env(spec=spec)
        yield settings, build_llm(settings), movie_graph

    monkeypatch.setattr(agent.cli, "_services", services)


@pytest.mark.usefixtures("loaded_graph")
@pytest.mark.parametrize(("grammar", "noted"), [("", False), ("?grammar=none", True)])
def test_the_note_comes_once_and_only_without_a_grammar(
    vllm_server: VLLMServer, grammar: str, noted: bool
) -> None:
    vllm_server.enqueue(final("Michael Mann."))
    spec = f"openai+{vllm_server.url}/v1{grammar}"
    result = CliRunner().invoke(app, ["ask", "Who directed Heat?", "--llm", spec])
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == "Michael Mann."
    stderr = " ".join(result.stderr.split())
    assert stderr.count("Replies are not grammar-constrained") == (1 if noted else 0)
    sent = vllm_server.posted("/v1/chat/completions")[0]
    assert ("response_format" in sent) is not noted
