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
def hub_online(monkeypatch: pytest.MonkeyPatch) -> None:
    """Offline mode off for one test, so `InferenceClient` may reach a TGI on loopback.

    `is_offline_mode()` reads `constants.HF_HUB_OFFLINE`, computed once at import from the
    environment. Telemetry goes off too, or the first request's headers fetch a registry from
    the Hub. The socket guard in tests/conftest.py still blocks everything outside loopback.
    """
    from huggingface_hub import constants

    for var in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("HF_HUB_DISABLE_TELEMETRY", "1")
    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", False)
    monkeypatch.setattr(constants, "HF_HUB_DISABLE_TELEMETRY", True)


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
