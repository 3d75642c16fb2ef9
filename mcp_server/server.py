"""The MCP server: `tools/list` and `tools/call` over the semantic layer's tools; prompts
(`mcp_server.prompts`) whose movie, person and genre arguments complete from the graph
(`mcp_server.completion`); the graph schema and the tools as resources (`mcp_server.resources`).

The low-level `Server` of the official SDK, because our schemas already exist (each tool's
input model, `ToolResult` for the output) and are handed over as they are.
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

import anyio
from mcp import MCPError, types
from mcp.server import Server, ServerRequestContext
from mcp.types import INVALID_PARAMS

from mcp_server import choice, prompts, resources
from mcp_server.catalog import call_result, definition, refusal
from mcp_server.completion import completion
from mcp_server.identity import caller_user_id
from mcp_server.toolbox import ToolBox

INSTRUCTIONS = (
    "Movie facts and recommendations from a MovieLens graph. Pass titles and names as the user "
    "wrote them; when a title is ambiguous the result lists the candidates with their years: "
    "ask the user which one, then call again with that title and year, e.g. 'Heat (1995)'."
)


def build_server(
    toolbox: ToolBox, *, tokens_required: bool = False, show_queries: bool = False
) -> Server:
    """A server whose calls act for the token's user, or for `toolbox.local` without tokens.

    `show_queries` adds each tool's Cypher trace to its results, for the local user only.
    """

    async def list_tools(
        ctx: ServerRequestContext, params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return types.ListToolsResult(tools=[definition(t) for t in toolbox.listing()])

    async def call_tool(
        ctx: ServerRequestContext, params: types.CallToolRequestParams
    ) -> types.CallToolResult | types.InputRequiredResult:
        user_id = caller_user_id()
        if tokens_required and user_id is None:  # the HTTP layer answers 401 before this
            return refusal(params.name, "This server needs a bearer token.")
        if params.name not in toolbox.tools:  # the spec's answer: a JSON-RPC error
            known = ", ".join(toolbox.tools)
            raise MCPError(INVALID_PARAMS, f"Unknown tool {params.name!r}; the tools are: {known}.")
        arguments = params.arguments or {}
        if picked := choice.answer(params):
            arguments = choice.with_choice(arguments, picked)
        result = await anyio.to_thread.run_sync(toolbox.call, user_id, params.name, arguments)
        if isinstance(result, str):
            return refusal(params.name, result)
        asking = result.kind == "candidates" and result.candidates and not choice.replied(params)
        if asking and choice.can_ask(ctx.protocol_version, ctx.session.client_capabilities):
            return choice.question(result)
        return call_result(result, show_queries=show_queries and user_id is None)

    async def list_prompts(
        ctx: ServerRequestContext, params: types.PaginatedRequestParams | None
    ) -> types.ListPromptsResult:
        return prompts.listing()

    async def get_prompt(
        ctx: ServerRequestContext, params: types.GetPromptRequestParams
    ) -> types.GetPromptResult:
        return prompts.get(params.name, params.arguments)

    async def complete(
        ctx: ServerRequestContext, params: types.CompleteRequestParams
    ) -> types.CompleteResult:
        return await anyio.to_thread.run_sync(toolbox.locked, completion, toolbox.graph, params)

    async def list_resources(
        ctx: ServerRequestContext, params: types.PaginatedRequestParams | None
    ) -> types.ListResourcesResult:
        return resources.listing(toolbox)

    async def read_resource(
        ctx: ServerRequestContext, params: types.ReadResourceRequestParams
    ) -> types.ReadResourceResult:
        return await anyio.to_thread.run_sync(toolbox.locked, resources.read, toolbox, params.uri)

    return Server(
        "movieagent",
        version=_version(),
        instructions=INSTRUCTIONS,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
        on_list_prompts=list_prompts,
        on_get_prompt=get_prompt,
        on_completion=complete,
        on_list_resources=list_resources,
        on_read_resource=read_resource,
    )


def _version() -> str:
    try:
        return version("movieagent")
    except PackageNotFoundError:  # pragma: no cover - run from a source tree
        return ""
