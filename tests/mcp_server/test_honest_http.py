"""What the HTTP server says about itself is true: OAuth metadata only with an authorization
server and at the public address; a busy port or a bad tokens file is a sentence before anything
says "Serving"; the sentence about a tokens file says what to write in the file."""

from __future__ import annotations

import json
import socket
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from typer.testing import CliRunner

from mcp_server.server import build_server
from mcp_server.toolbox import ToolBox
from mcp_server.transports import http_app
from movieagent.cli import app
from tests.mcp_server.conftest import ALICE, ALICE_ID

METADATA = "/.well-known/oauth-protected-resource/mcp"
TOKENS = {ALICE: ALICE_ID}


def _app(graph: Any, **auth: str) -> Any:
    server = build_server(ToolBox(graph), tokens_required=True)
    return http_app(server, host="0.0.0.0", port=8765, tokens=TOKENS, **auth)


def test_no_oauth_metadata_without_an_authorization_server(movie_graph: Any) -> None:
    with TestClient(_app(movie_graph), base_url="http://movies.example.org:8765") as client:
        assert client.get(METADATA).status_code == 404
        refused = client.post("/mcp", json={})
    assert refused.status_code == 401
    assert "resource_metadata" not in refused.headers["www-authenticate"]
    assert "0.0.0.0" not in refused.text + refused.headers["www-authenticate"]


def test_oauth_metadata_names_the_authorization_server_and_the_public_url(
    movie_graph: Any,
) -> None:
    auth = {
        "auth_server": "https://login.example.org",
        "public_url": "https://movies.example.org/mcp",
    }
    with TestClient(_app(movie_graph, **auth), base_url="http://movies.example.org:8765") as client:
        metadata = client.get(METADATA).json()
        refused = client.post("/mcp", json={})
    assert metadata["resource"] == "https://movies.example.org/mcp"
    assert [s.rstrip("/") for s in metadata["authorization_servers"]] == [
        "https://login.example.org"
    ]
    assert "https://movies.example.org/.well-known" in refused.headers["www-authenticate"]


def _env(graph: Any) -> dict[str, str]:
    settings = graph.settings
    return {"MOVIEAGENT_DATA_DIR": str(settings.data_dir), "MOVIEAGENT_GRAPH": settings.graph_name}


def test_a_busy_port_is_a_sentence_before_serving(
    writable_graph: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    served: list[Any] = []
    monkeypatch.setattr("mcp_server.transports.serve_http", lambda *a, **k: served.append(a))
    busy = socket.socket()
    busy.bind(("127.0.0.1", 0))
    busy.listen(1)
    try:
        port = str(busy.getsockname()[1])
        result = CliRunner().invoke(
            app, ["mcp", "--transport", "http", "--port", port], env=_env(writable_graph)
        )
    finally:
        busy.close()
    assert result.exit_code == 2, result.output
    words = " ".join(result.output.split())
    assert f"Cannot listen on 127.0.0.1:{port}" in words and "another --port" in words
    assert "Serving" not in result.output and not served


def test_a_tokens_file_naming_an_unknown_user_says_what_to_write_there(
    writable_graph: Any, tmp_path: Path
) -> None:
    tokens = tmp_path / "tokens.json"
    tokens.write_text(json.dumps({ALICE: 99_999}))  # below the app's ids, and nobody's
    result = CliRunner().invoke(
        app, ["mcp", "--transport", "http", "--tokens", str(tokens)], env=_env(writable_graph)
    )
    words = " ".join(result.output.split())
    assert result.exit_code == 2, result.output
    assert f"The tokens file {tokens} names user 99999" in words
    assert "give the token an id from 10000000-10000999" in words
    assert "--user-id" not in words and "Serving" not in words
