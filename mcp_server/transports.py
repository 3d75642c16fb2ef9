"""stdio for desktop clients; streamable HTTP, with bearer tokens off loopback."""

from __future__ import annotations

import ipaddress
import socket

import anyio
from mcp.server import Server
from mcp.server.auth.settings import AuthSettings
from mcp.server.stdio import stdio_server
from pydantic import AnyHttpUrl
from starlette.applications import Starlette

from mcp_server.auth import SCOPE, Tokens, TokenUsers

PATH = "/mcp"


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def http_problem(host: str, tokens: Tokens | None) -> str | None:
    """Why the HTTP transport must not start (a sentence), or None."""
    if not tokens and not is_loopback(host):
        return (
            f"Refusing to serve on {host} without bearer tokens: anyone who reaches the port "
            "could act as the user. Pass --tokens FILE (or MOVIEAGENT_MCP_TOKENS), or listen "
            "on 127.0.0.1."
        )
    return None


def serve_stdio(server: Server) -> None:
    async def main() -> None:
        async with stdio_server() as (read, write):
            await server.run(read, write, server.create_initialization_options())

    anyio.run(main)


def http_app(server: Server, *, host: str, port: int, tokens: Tokens | None = None) -> Starlette:
    """The ASGI app at `/mcp`; with `tokens`, a request without a known one gets 401."""
    if not tokens:
        return server.streamable_http_app(streamable_http_path=PATH, host=host)
    base = f"http://{'localhost' if is_loopback(host) else host}:{port}"
    auth = AuthSettings(
        issuer_url=AnyHttpUrl(base),  # the operator issues the tokens (the tokens file)
        resource_server_url=AnyHttpUrl(f"{base}{PATH}"),
        required_scopes=[SCOPE],
        validate_token_resource=False,  # our verifier knows each token itself
    )
    return server.streamable_http_app(
        streamable_http_path=PATH, host=host, auth=auth, token_verifier=TokenUsers(tokens)
    )


def serve_http(app: Starlette, *, host: str, port: int, sock: socket.socket | None = None) -> None:
    import uvicorn

    config = uvicorn.Config(app, host=host, port=port, log_level="warning")
    uvicorn.Server(config).run(sockets=None if sock is None else [sock])
