"""The SDK's own client over stdio: `movieagent mcp` as a subprocess, as a desktop client runs it.

The subprocess opens the same embedded database as the tests (the data directory's FalkorDB
server is shared) and works on a private copy of the graph.
"""

from __future__ import annotations

import os
import sys
from typing import Any

import anyio
from mcp import Client, StdioServerParameters
from typer.testing import CliRunner

from movieagent.cli import app
from semantic_layer.users import FIRST_APP_USER_ID, user_ratings
from tests.conftest import REPO


def server_params(graph: Any, *args: str) -> StdioServerParameters:
    settings = graph.settings
    env = {
        "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")]),
        "MOVIEAGENT_DATA_DIR": str(settings.data_dir),
        "MOVIEAGENT_GRAPH": settings.graph_name,
        "HF_HUB_OFFLINE": "1",
    }
    return StdioServerParameters(
        command=sys.executable, args=["-m", "movieagent.cli", "mcp", *args], env=env, cwd=REPO
    )


def test_a_guest_over_stdio(writable_graph: Any) -> None:
    async def main() -> tuple[Any, ...]:
        async with Client(server_params(writable_graph)) as client:
            tools = (await client.list_tools()).tools
            heat = await client.call_tool("film_facts", {"entity": "Heat"})
            ambiguous = await client.call_tool("film_facts", {"entity": "Solaris"})
            first = await client.call_tool("memory", {"movie": "Heat (1995)", "rating": 5})
            second = await client.call_tool("memory", {"movie": "Ronin", "rating": 4})
            return tools, heat, ambiguous, first, second

    tools, heat, ambiguous, first, second = anyio.run(main)
    assert {"recommender", "film_facts", "memory", "smalltalk"} <= {t.name for t in tools}
    assert heat.structured_content["data"]["title"] == "Heat"
    assert "Michael Mann" in heat.structured_content["data"]["directors"]
    assert {c["year"] for c in ambiguous.structured_content["candidates"]} == {1972, 2002}
    guest = first.structured_content["data"]["userId"]
    assert guest >= FIRST_APP_USER_ID  # a new user, created on the first rating
    assert second.structured_content["data"]["userId"] == guest  # and kept for the session
    titles = {r["title"] for r in user_ratings(writable_graph, guest)}
    assert titles == {"Heat", "Ronin"}


def test_a_movielens_user_over_stdio(writable_graph: Any) -> None:
    async def main() -> Any:
        async with Client(server_params(writable_graph, "--user-id", "1")) as client:
            return await client.call_tool("film_facts", {"entity": "Heat (1995)"})

    result = anyio.run(main)
    assert result.structured_content["data"]["title"] == "Heat"
    assert "yourRating" in result.structured_content["data"]


def test_an_unknown_movielens_user_is_refused(writable_graph: Any, monkeypatch: Any) -> None:
    monkeypatch.setenv("MOVIEAGENT_DATA_DIR", str(writable_graph.settings.data_dir))
    monkeypatch.setenv("MOVIEAGENT_GRAPH", writable_graph.settings.graph_name)
    result = CliRunner().invoke(app, ["mcp", "--user-id", "999999"])
    assert result.exit_code == 2
    assert "User 999999 is not in the graph" in result.output


def test_http_off_loopback_needs_tokens() -> None:
    result = CliRunner().invoke(app, ["mcp", "--transport", "http", "--host", "0.0.0.0"])
    assert result.exit_code == 2
    assert "without bearer tokens" in result.output and "--tokens" in result.output
