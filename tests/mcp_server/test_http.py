"""The SDK's own client over streamable HTTP: tools listed and called, users from tokens."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any

import anyio
import httpx
import httpx2
import pytest
from mcp import Client, MCPError
from mcp.client.streamable_http import streamable_http_client
from mcp.types import INVALID_PARAMS, ElicitRequestFormParams, ElicitRequestParams, ElicitResult

from semantic_layer.tools.information import Information
from semantic_layer.users import FIRST_APP_USER_ID, user_ratings
from tests.mcp_server.conftest import ALICE, ALICE_ID, BOB, BOB_ID, HttpServer

INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "test", "version": "0"},
    },
}


def with_client(
    server: HttpServer,
    token: str | None,
    body: Callable[[Client], Awaitable[Any]],
    elicit: Any = None,
) -> Any:
    """Run `body` with an SDK client of `server` sending `token`; `elicit` answers questions."""

    async def main() -> Any:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        async with (
            httpx2.AsyncClient(headers=headers, timeout=30) as http,
            Client(
                streamable_http_client(server.url, http_client=http), elicitation_callback=elicit
            ) as client,
        ):
            return await body(client)

    return anyio.run(main)


def test_every_tool_is_listed_with_schema_and_hints(http_server: HttpServer) -> None:
    async def body(client: Client) -> Any:
        return (await client.list_tools()).tools

    tools = {t.name: t for t in with_client(http_server, ALICE, body)}
    assert {"recommender", "film_facts", "memory", "smalltalk"} <= set(tools)
    assert {"most_tagged", "movies_together", "top_movies_by_director"} <= set(tools)  # declared
    information, memory = tools["film_facts"], tools["memory"]
    assert information.description == Information.description  # the tool's own words
    assert information.input_schema["required"] == ["entity"]
    assert set(information.input_schema["properties"]) == {"entity", "entity_type", "about"}
    assert information.annotations is not None and memory.annotations is not None
    assert information.annotations.read_only_hint is True
    assert information.annotations.destructive_hint is False
    assert memory.annotations.read_only_hint is False
    assert memory.annotations.destructive_hint is True
    assert (
        "userId" not in str(memory.input_schema) and "user" not in memory.input_schema["properties"]
    )
    assert memory.output_schema is not None and "candidates" in memory.output_schema["properties"]


def test_information_for_heat(http_server: HttpServer) -> None:
    async def body(client: Client) -> Any:
        return await client.call_tool("film_facts", {"entity": "Heat"})

    result = with_client(http_server, ALICE, body)
    assert not result.is_error
    data = result.structured_content
    assert data["ok"] and data["kind"] == "movie"
    assert (data["data"]["title"], data["data"]["year"]) == ("Heat", 1995)
    assert "Michael Mann" in data["data"]["directors"]
    assert result.content[0].text.startswith("Heat (1995)")
    assert json.loads(result.content[1].text) == data  # for clients that read only `content`
    assert "queries" not in data and "MATCH" not in result.content[1].text  # never remotely


def test_an_unknown_tool_is_a_json_rpc_error(http_server: HttpServer) -> None:
    async def body(client: Client) -> Any:
        try:
            return await client.call_tool("no_such_tool", {})
        except MCPError as e:
            return e.error

    error = with_client(http_server, ALICE, body)
    assert error.code == INVALID_PARAMS and "no_such_tool" in error.message


def test_an_ambiguous_title_returns_the_candidates_with_years(http_server: HttpServer) -> None:
    async def body(client: Client) -> Any:
        return await client.call_tool("film_facts", {"entity": "Solaris"})

    result = with_client(http_server, ALICE, body)
    data = result.structured_content
    assert not data["ok"] and data["kind"] == "candidates"
    assert {c["year"] for c in data["candidates"]} == {1972, 2002}
    text = result.content[0].text
    assert "- Solaris (1972)" in text and "- Solaris (2002)" in text


def test_a_rating_is_stored_for_the_tokens_user_not_the_arguments(
    http_server: HttpServer,
) -> None:
    async def rate(client: Client) -> Any:
        # a user id among the arguments is no way to act as someone else: it is refused
        refused = await client.call_tool(
            "memory", {"movie": "Heat (1995)", "rating": 4.5, "userId": BOB_ID, "user_id": 1}
        )
        return refused, await client.call_tool("memory", {"movie": "Heat (1995)", "rating": 4.5})

    refused, result = with_client(http_server, ALICE, rate)
    assert refused.is_error and "userId: Extra inputs are not permitted" in refused.content[0].text
    assert not result.is_error, result.content
    assert result.structured_content["data"]["userId"] == ALICE_ID
    graph = http_server.graph
    assert [(r["title"], r["rating"]) for r in user_ratings(graph, ALICE_ID)] == [("Heat", 4.5)]
    assert user_ratings(graph, BOB_ID) == []

    async def bob_reads(client: Client) -> Any:
        return await client.call_tool("film_facts", {"entity": "Heat (1995)"})

    assert with_client(http_server, BOB, bob_reads).structured_content["data"]["yourRating"] is None
    alice = with_client(http_server, ALICE, bob_reads).structured_content["data"]
    assert alice["yourRating"] == 4.5


def test_invalid_arguments_get_a_sentence(http_server: HttpServer) -> None:
    async def body(client: Client) -> Any:
        return await client.call_tool("memory", {"movie": "Heat", "rating": 9})

    result = with_client(http_server, ALICE, body)
    assert result.is_error and "Invalid arguments for memory: rating" in result.content[0].text


@pytest.mark.parametrize("token", [None, "not-a-known-token-at-all"])
def test_unauthenticated_requests_are_refused(
    http_server: HttpServer, plain_http: httpx.Client, token: str | None
) -> None:
    headers = {"Accept": "application/json, text/event-stream"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    response = plain_http.post(http_server.url, json=INITIALIZE, headers=headers)
    assert response.status_code == 401
    assert "Bearer" in response.headers["www-authenticate"]

    async def body(client: Client) -> Any:
        return await client.list_tools()

    with pytest.raises(BaseExceptionGroup) as caught:  # the SDK client gets no session
        with_client(http_server, token, body)
    assert caught.group_contains(MCPError)


def test_a_client_that_can_ask_gets_a_question_then_the_answer(http_server: HttpServer) -> None:
    asked: list[tuple[str, list[str]]] = []

    async def pick_the_later(context: Any, params: ElicitRequestParams) -> ElicitResult:
        assert isinstance(params, ElicitRequestFormParams)
        labels = params.requested_schema["properties"]["choice"]["enum"]
        asked.append((params.message, labels))
        return ElicitResult(action="accept", content={"choice": labels[-1]})

    async def ask_and_rate(client: Client) -> Any:
        info = await client.call_tool("film_facts", {"entity": "solaris"})
        # a write asks even though the 2006 film is far better known
        rated = await client.call_tool("memory", {"movie": "Casino Royale", "rating": 4})
        return info, rated

    info, rated = with_client(http_server, ALICE, ask_and_rate, elicit=pick_the_later)
    assert [labels for _, labels in asked] == [
        ["Solaris (1972)", "Solaris (2002)"],
        ["Casino Royale (1967)", "Casino Royale (2006)"],
    ]
    assert "Which one do you mean?" in asked[0][0]
    assert info.structured_content["kind"] == "movie"
    assert info.structured_content["data"]["year"] == 2002
    assert rated.structured_content["data"]["year"] == 2006
    assert [r["year"] for r in user_ratings(http_server.graph, ALICE_ID)] == [2006]


def test_a_declined_question_returns_the_candidates(http_server: HttpServer) -> None:
    async def decline(context: Any, params: ElicitRequestParams) -> ElicitResult:
        return ElicitResult(action="decline")

    async def rate(client: Client) -> Any:
        return await client.call_tool("memory", {"movie": "Casino Royale", "rating": 4})

    result = with_client(http_server, ALICE, rate, elicit=decline)
    assert result.structured_content["kind"] == "candidates"
    assert user_ratings(http_server.graph, ALICE_ID) == []


def test_loopback_without_tokens_serves_the_local_user(loopback_server: HttpServer) -> None:
    async def body(client: Client) -> Any:
        heat = await client.call_tool("film_facts", {"entity": "Heat"})
        rated = await client.call_tool("memory", {"movie": "Heat (1995)", "rating": 3})
        return heat, rated

    heat, rated = with_client(loopback_server, None, body)
    assert heat.structured_content["data"]["title"] == "Heat"
    guest = rated.structured_content["data"]["userId"]
    assert guest >= FIRST_APP_USER_ID
    assert [r["rating"] for r in user_ratings(loopback_server.graph, guest)] == [3.0]
