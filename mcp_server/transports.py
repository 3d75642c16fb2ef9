"""stdio for desktop clients; streamable HTTP, with bearer tokens off loopback."""

from __future__ import annotations

import ipaddress
import socket
import sys
from typing import cast

import anyio
from mcp.server import Server
from mcp.server.auth.settings import AuthSettings
from mcp.server.stdio import stdio_server
from pydantic import AnyHttpUrl
from starlette.applications import Starlette

from mcp_server.auth import SCOPE, Tokens, TokenUsers
from mcp_server.stdin_lines import DaemonStdin

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
    """Serve until stdin ends; SIGTERM or Ctrl-C end it too (`DaemonStdin`)."""
    stdin = cast("anyio.AsyncFile[str]", DaemonStdin(sys.stdin.fileno()))  # only iterated

    async def main() -> None:
        async with stdio_server(stdin=stdin) as (read, write):
            await server.run(read, write, server.create_initialization_options())

    anyio.run(main)


def http_app(
    server: Server,
    *,
    host: str,
    port: int,
    tokens: Tokens | None = None,
    auth_server: str | None = None,
    public_url: str | None = None,
) -> Starlette:
    """The ASGI app at `/mcp`; with `tokens`, a request without a known one gets 401.

    OAuth protected-resource metadata (RFC 9728) is served only with `auth_server`, the
    authorization server that issues the tokens, and names the resource at `public_url` (the
    address clients reach, never 0.0.0.0). Without one a 401 says only `Bearer`: the tokens
    come from the operator, and no client could obtain one by OAuth.
    """
    if not tokens:
        return server.streamable_http_app(streamable_http_path=PATH, host=host)
    resource = AnyHttpUrl(public_url or f"{local_url(host, port)}{PATH}")
    auth = AuthSettings(
        # without an authorization server nothing reads the issuer: no OAuth route is made
        issuer_url=AnyHttpUrl(auth_server) if auth_server else resource,
        resource_server_url=resource if auth_server else None,
        required_scopes=[SCOPE],
        validate_token_resource=False,  # our verifier knows each token itself
    )
    return server.streamable_http_app(
        streamable_http_path=PATH, host=host, auth=auth, token_verifier=TokenUsers(tokens)
    )


def local_url(host: str, port: int) -> str:
    """The server's address as seen from this machine."""
    shown = "localhost" if is_loopback(host) or is_unspecified(host) else host
    if ":" in shown:
        shown = f"[{shown.strip('[]')}]"
    return f"http://{shown}:{port}"


def is_unspecified(host: str) -> bool:
    """0.0.0.0 or ::, every address of the machine: no client can use it as an address."""
    try:
        return ipaddress.ip_address(host.strip("[]")).is_unspecified
    except ValueError:
        return False


def listen(host: str, port: int) -> socket.socket:
    """A socket bound to `host:port`, or `OSError` (a busy port, an address not ours)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn does
        sock.bind((host.strip("[]"), port))
        sock.listen(128)
    except OSError:
        sock.close()
        raise
    return sock


def serve_http(app: Starlette, *, host: str, port: int, sock: socket.socket | None = None) -> None:
    import uvicorn

    config = uvicorn.Config(app, host=host, port=port, log_level="warning")
    uvicorn.Server(config).run(sockets=None if sock is None else [sock])
