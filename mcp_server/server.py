"""The MCP server: `tools/list` and `tools/call` over the semantic layer's tools.

The low-level `Server` of the official SDK, because our schemas already exist (each tool's
input model, `ToolResult` for the output) and are handed over as they are.
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

import anyio
from mcp import types
from mcp.server import Server, ServerRequestContext

from mcp_server import choice
from mcp_server.catalog import call_result, definition, refusal
from mcp_server.identity import caller_user_id
from mcp_server.toolbox import ToolBox

INSTRUCTIONS = (
    "Movie facts and recommendations from a MovieLens graph. Pass titles and names as the user "
    "wrote them; when a title is ambiguous the result lists the candidates with their years: "
    "ask the user which one, then call again with that title and year, e.g. 'Heat (1995)'."
)


def build_server(toolbox: ToolBox, *, tokens_required: bool = False) -> Server:
    """A server whose calls act for the token's user, or for `toolbox.local` without tokens."""

    async def list_tools(
        ctx: ServerRequestContext, params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return types.ListToolsResult(tools=[definition(t) for t in toolbox.listing()])

    async def call_tool(
        ctx: ServerRequestContext, params: types.CallToolRequestParams
    ) -> types.CallToolResult | types.InputRequiredResult:
        user_id = caller_user_id()
        if tokens_required and user_id is None:  # the HTTP layer answers 401 before this
            return refusal("This server needs a bearer token.")
        arguments = params.arguments or {}
        if picked := choice.answer(params):
            arguments = choice.with_choice(arguments, picked)
        result = await anyio.to_thread.run_sync(toolbox.call, user_id, params.name, arguments)
        if isinstance(result, str):
            return refusal(result)
        asking = result.kind == "candidates" and result.candidates and not choice.replied(params)
        if asking and choice.can_ask(ctx.protocol_version, ctx.session.client_capabilities):
            return choice.question(result)
        return call_result(result)

    return Server(
        "movieagent",
        version=_version(),
        instructions=INSTRUCTIONS,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
    )


def _version() -> str:
    try:
        return version("movieagent")
    except PackageNotFoundError:  # pragma: no cover - run from a source tree
        return ""
