"""Fixtures for the agent tests: a TGI-protocol server on loopback, scripted tools."""

from __future__ import annotations

import socket
from collections.abc import Iterator

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
