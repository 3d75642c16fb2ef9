"""`movieagent mcp`: serve the tools over MCP (stdio by default, or streamable HTTP)."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer
from rich.console import Console
from rich.markup import escape

if TYPE_CHECKING:  # imported when the command runs: `movieagent --help` stays quick
    from pydantic import SecretStr

    from mcp_server.settings import McpSettings
    from semantic_layer.graph import Graph

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
            "Default: $MOVIEAGENT_MCP_TOKENS.",
        ),
    ] = None,
    auth_server: Annotated[
        str | None,
        typer.Option(
            "--auth-server",
            help="http: the OAuth authorization server that issues the tokens; only then is "
            "protected-resource metadata served. Default: $MOVIEAGENT_MCP_AUTH_SERVER.",
        ),
    ] = None,
    public_url: Annotated[
        str | None,
        typer.Option(
            "--public-url",
            help="http: the address clients reach /mcp at, e.g. https://movies.example.org/mcp "
            "(named in that metadata). Default: $MOVIEAGENT_MCP_PUBLIC_URL.",
        ),
    ] = None,
    show_queries: Annotated[
        bool,
        typer.Option(
            "--show-queries",
            help="stdio: add each tool's Cypher queries, parameters and timings to its results "
            "(for debugging; never sent to remote callers).",
        ),
    ] = False,
) -> None:
    """Serve every tool (built-in and declared) to MCP clients."""
    from mcp_server.identity import operator_user, reserve
    from mcp_server.server import build_server
    from mcp_server.toolbox import ToolBox
    from mcp_server.transports import (
        http_app,
        http_problem,
        is_unspecified,
        listen,
        local_url,
        serve_http,
        serve_stdio,
    )
    from semantic_layer.errors import SemanticLayerError, UserIdError
    from semantic_layer.graph import connect
    from semantic_layer.recommend.neighbour_cache import SHARED
    from semantic_layer.user_policy import session_for

    if tokens is not None and transport is Transport.stdio:
        _fail("--tokens is for --transport http; over stdio the user is --user-id.", code=2)
    if show_queries and transport is Transport.http:
        _fail("--show-queries is for stdio: remote callers never see the queries.", code=2)
    settings = _settings(tokens, auth_server, public_url)
    token_file, token_map = _tokens(settings, transport)
    if token_map and user_id is not None:
        _fail("With --tokens each token names its user; leave out --user-id.", code=2)
    if transport is Transport.http and (problem := http_problem(host, token_map)):
        _fail(problem, code=2)
    auth, public = settings.auth_server, settings.public_url
    if transport is Transport.http and auth and not token_map:
        _fail("--auth-server is for a server with --tokens.", code=2)
    if auth and not public and is_unspecified(host):
        _fail(f"With --auth-server on {host} pass --public-url, the address clients use.", code=2)
    try:
        with connect() as graph:
            _check_graph(graph)
            SHARED.warm_in_background(graph)  # the recommender's neighbourhoods, in memory
            if problem := reserve(graph, token_file, (token_map or {}).values()):
                _fail(problem, code=2)
            try:
                operator_user(graph, user_id)
                local = session_for(graph, user_id)
            except UserIdError as e:
                _fail(str(e), code=2)
            toolbox = ToolBox(graph, local=local)
            server = build_server(
                toolbox, tokens_required=bool(token_map), show_queries=show_queries
            )
            if transport is Transport.stdio:
                serve_stdio(server)
                return
            try:  # before anything says "Serving": a busy port is a sentence, not exit 3
                sock = listen(host, port)
            except OSError as e:
                _fail(
                    f"Cannot listen on {host}:{port}: {e.strerror or e}. Another server may "
                    "hold the port: stop it, or pass another --port.",
                    code=2,
                )
            port = sock.getsockname()[1]
            app = http_app(
                server,
                host=host,
                port=port,
                tokens=token_map,
                auth_server=str(auth) if auth else None,
                public_url=str(public) if public else None,
            )
            who = "users of the tokens file" if token_map else f"user {user_id or 'guest'}"
            err.print(f"Serving MCP at {public or local_url(host, port) + '/mcp'} for {who}.")
            serve_http(app, host=host, port=port, sock=sock)
    except SemanticLayerError as e:
        _fail(str(e))


def _settings(tokens: Path | None, auth_server: str | None, public_url: str | None) -> McpSettings:
    from mcp_server.settings import McpSettings
    from semantic_layer.errors import SemanticLayerError

    explicit: dict[str, Any] = dict(
        MOVIEAGENT_MCP_TOKENS=tokens,
        MOVIEAGENT_MCP_AUTH_SERVER=auth_server,
        MOVIEAGENT_MCP_PUBLIC_URL=public_url,
    )
    try:
        return McpSettings.read(None, **{k: v for k, v in explicit.items() if v is not None})
    except SemanticLayerError as e:
        _fail(str(e), code=2)


def _tokens(
    settings: McpSettings, transport: Transport
) -> tuple[Path | None, dict[SecretStr, int] | None]:
    """The tokens file (from --tokens or the settings) and its tokens; none over stdio."""
    from mcp_server.auth import TokenFileError, read_tokens

    if transport is Transport.stdio:
        return None, None  # a tokens file in the settings is for the HTTP server
    path = settings.tokens_file
    if path is None:
        return None, None
    try:
        return path, read_tokens(path)
    except TokenFileError as e:
        _fail(str(e), code=2)


def _check_graph(graph: Graph) -> None:
    from semantic_layer.graph_stats import graph_problem

    if problem := graph_problem(graph):
        _fail(problem)


def _fail(sentence: str, code: int = 1) -> NoReturn:
    err.print(f"[red]error:[/red] {escape(sentence)}")
    raise typer.Exit(code)


def register(app: typer.Typer) -> None:
    app.command("mcp")(mcp_command)
