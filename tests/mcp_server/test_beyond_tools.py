"""Beyond tools, with the SDK's own client: prompts whose movie, person and genre arguments
complete from the graph, and the graph schema and the tools as resources."""

from __future__ import annotations

import json
from typing import Any

from mcp import Client, MCPError
from mcp.types import INVALID_PARAMS, PromptReference

from tests.mcp_server.conftest import ALICE, HttpServer
from tests.mcp_server.test_http import with_client


def test_prompt_arguments_complete_from_the_graph(http_server: HttpServer) -> None:
    async def body(client: Client) -> Any:
        prompts = (await client.list_prompts()).prompts
        titles = await client.complete(
            PromptReference(type="ref/prompt", name="movies_like"),
            {"name": "title", "value": "the matr"},
        )
        people = await client.complete(
            PromptReference(type="ref/prompt", name="films_of"),
            {"name": "name", "value": "michael ma"},
        )
        genres = await client.complete(
            PromptReference(type="ref/prompt", name="watch_tonight"),
            {"name": "genre", "value": "sci"},
        )
        return prompts, titles, people, genres

    prompts, titles, people, genres = with_client(http_server, ALICE, body)
    assert {"movies_like", "watch_tonight", "films_of"} <= {p.name for p in prompts}
    assert titles.completion.values[0] == "The Matrix (1999)"
    assert "Michael Mann" in people.completion.values
    assert genres.completion.values == ["Sci-Fi"]


def test_a_prompt_names_the_tool_and_the_argument(http_server: HttpServer) -> None:
    async def body(client: Client) -> Any:
        like = await client.get_prompt("movies_like", {"title": "Heat (1995)"})
        tonight = await client.get_prompt("watch_tonight", {})
        return like, tonight

    like, tonight = with_client(http_server, ALICE, body)
    text = like.messages[0].content.text
    assert "recommender" in text and '"Heat (1995)"' in text
    assert "recommender tool;" in tonight.messages[0].content.text  # no genre asked for

    async def missing(client: Client) -> Any:
        try:
            return await client.get_prompt("movies_like", {})
        except MCPError as e:
            return e.error

    error = with_client(http_server, ALICE, missing)
    assert error.code == INVALID_PARAMS and "title" in error.message


def test_the_schema_and_the_tools_are_resources(http_server: HttpServer) -> None:
    async def body(client: Client) -> Any:
        listed = (await client.list_resources()).resources
        schema = await client.read_resource("movieagent://graph/schema")
        tools = await client.read_resource("movieagent://tools")
        declared = await client.read_resource("movieagent://tools/most_tagged")
        return listed, schema, tools, declared

    listed, schema, tools, declared = with_client(http_server, ALICE, body)
    uris = {str(r.uri) for r in listed}
    assert {"movieagent://graph/schema", "movieagent://tools/most_tagged"} <= uris
    graph = json.loads(schema.contents[0].text)
    assert "title" in graph["nodes"]["Movie"]["properties"] and graph["nodes"]["Movie"]["count"]
    assert graph["relationships"]["ACTED_IN"]["from"] == ["Person"]
    assert {t["name"] for t in json.loads(tools.contents[0].text)} >= {"memory", "most_tagged"}
    assert "MATCH" in declared.contents[0].text
