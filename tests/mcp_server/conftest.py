"""An MCP server over the real graph: streamable HTTP in a thread on a free loopback port."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx
import pytest
import uvicorn

from mcp_server.server import build_server
from mcp_server.toolbox import ToolBox
from mcp_server.transports import http_app

ALICE, BOB = "alice-token-0123456789abcdef", "bob-token-0123456789abcdef"
ALICE_ID, BOB_ID = 10_000_101, 10_000_102


class HttpServer:
    def __init__(self, url: str, graph: Any) -> None:
        self.url = url
        self.graph = graph


@contextmanager
def serving(graph: Any, tokens: dict[str, int] | None) -> Iterator[HttpServer]:
    """`movieagent mcp --transport http` in a thread, on a port the OS chose."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = build_server(ToolBox(graph), tokens_required=bool(tokens))
    app = http_app(server, host="127.0.0.1", port=port, tokens=tokens)
    runner = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    thread = threading.Thread(target=runner.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not runner.started:
        assert time.monotonic() < deadline, "the HTTP server did not start"
        time.sleep(0.05)
    try:
        yield HttpServer(f"http://127.0.0.1:{port}/mcp", graph)
    finally:
        runner.should_exit = True
        thread.join(timeout=10)
        sock.close()


@pytest.fixture
def http_server(writable_graph: Any) -> Iterator[HttpServer]:
    """With a tokens file: Alice's and Bob's tokens."""
    with serving(writable_graph, {ALICE: ALICE_ID, BOB: BOB_ID}) as server:
        yield server


@pytest.fixture
def loopback_server(writable_graph: Any) -> Iterator[HttpServer]:
    """Without tokens (loopback only): one local user, a guest."""
    with serving(writable_graph, None) as server:
        yield server


@pytest.fixture
def plain_http() -> Iterator[httpx.Client]:
    with httpx.Client(timeout=10) as client:
        yield client
