"""An MCP server over the real graph: streamable HTTP in a thread on a free loopback port."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
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


@pytest.fixture
def http_server(writable_graph: Any) -> Iterator[HttpServer]:
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    tokens = {ALICE: ALICE_ID, BOB: BOB_ID}
    server = build_server(ToolBox(writable_graph), tokens_required=True)
    app = http_app(server, host="127.0.0.1", port=port, tokens=tokens)
    runner = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    thread = threading.Thread(target=runner.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{port}/mcp"
    deadline = time.monotonic() + 20
    while not runner.started:
        assert time.monotonic() < deadline, "the HTTP server did not start"
        time.sleep(0.05)
    yield HttpServer(url, writable_graph)
    runner.should_exit = True
    thread.join(timeout=10)
    sock.close()


@pytest.fixture
def plain_http() -> Iterator[httpx.Client]:
    with httpx.Client(timeout=10) as client:
        yield client
