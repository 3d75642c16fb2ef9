"""`movieagent mcp`: serve the tools over MCP (stdio by default, or streamable HTTP)."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Annotated, NoReturn

import typer
from pydantic import SecretStr
from rich.console import Console
from rich.markup import escape

from mcp_server.auth import TOKENS_ENV, TokenFileError, read_tokens
from mcp_server.settings import McpSettings
from semantic_layer.errors import SemanticLayerError, UserIdError
from semantic_layer.graph import Graph, connect
from semantic_layer.graph_stats import graph_problem

err = Console(stderr=True)  # stdout belongs to the protocol on stdio


class Transport(StrEnum):
    stdio = "stdio"
    http = "http"


def mcp_command(
    transport: Annotated[
        Transport, typer.Option(help="stdio for a desktop client, http for remote clients.")
    ] = Transport.stdio,
    user_id: Annotated[
        int | None,
        typer.Option(
            "--user-id",
            help="Act as this user (stdio, or http without tokens). Default: a new guest.",
        ),
    ] = None,
    host: Annotated[str, typer.Option(help="http: the address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="http: the port to listen on.")] = 8765,
    tokens: Annotated[
        Path | None,
        typer.Option(
            "--tokens",
            help='http: JSON file mapping bearer tokens to user ids, {"token": 10000001}. '
            f"Default: ${TOKENS_ENV}.",
        ),
    ] = None,
) -> None:
    """Serve every tool (built-in and declared) to MCP clients."""
    from mcp_server.identity import user_problem
    from mcp_server.server import build_server
    from mcp_server.toolbox import ToolBox
    from mcp_server.transports import http_app, http_problem, serve_http, serve_stdio
    from semantic_layer.user_policy import session_for

    token_map = _tokens(tokens, transport)
    if token_map and user_id is not None:
        _fail("With --tokens each token names its user; leave out --user-id.", code=2)
    if transport is Transport.http and (problem := http_problem(host, token_map)):
        _fail(problem, code=2)
    try:
        with connect() as graph:
            _check_graph(graph)
            for uid in sorted(set((token_map or {}).values())):
                if problem := user_problem(graph, uid):
                    _fail(problem, code=2)
            try:
                local = session_for(graph, user_id)
            except UserIdError as e:
                _fail(str(e), code=2)
            toolbox = ToolBox(graph, local=local)
            server = build_server(toolbox, tokens_required=bool(token_map))
            if transport is Transport.stdio:
                serve_stdio(server)
                return
            app = http_app(server, host=host, port=port, tokens=token_map)
            who = "users of the tokens file" if token_map else f"user {user_id or 'guest'}"
            err.print(f"Serving MCP at http://{host}:{port}/mcp for {who}.")
            serve_http(app, host=host, port=port)
    except SemanticLayerError as e:
        _fail(str(e))


def _tokens(path: Path | None, transport: Transport) -> dict[SecretStr, int] | None:
    if path is not None and transport is Transport.stdio:
        _fail("--tokens is for --transport http; over stdio the user is --user-id.", code=2)
    if transport is Transport.stdio:
        return None  # a tokens file in the settings is for the HTTP server; stdio has one user
    try:
        path = path or McpSettings.from_env().tokens_file
    except SemanticLayerError as e:
        _fail(str(e), code=2)
    if path is None:
        return None
    try:
        return read_tokens(path)
    except TokenFileError as e:
        _fail(str(e), code=2)


def _check_graph(graph: Graph) -> None:
    if problem := graph_problem(graph):
        _fail(problem)


def _fail(sentence: str, code: int = 1) -> NoReturn:
    err.print(f"[red]error:[/red] {escape(sentence)}")
    raise typer.Exit(code)


def register(app: typer.Typer) -> None:
    app.command("mcp")(mcp_command)
