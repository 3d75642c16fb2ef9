"""Our tools as MCP sees them: definitions for `tools/list`, results for `tools/call`.

A definition carries the tool's own description and argument JSON schema, `readOnlyHint` /
`destructiveHint` from its mode, and as the output schema `ToolResult`'s with `data` narrowed to
the tool's typed payload (`semantic_layer.tools.payloads`; rows for a declared tool). A result
carries the `ToolResult` as structured content, and as text its sentence and the same JSON
(compact), for clients that read only `content`; an ambiguous title lists the candidates with
their years, so the client can ask which one. The Cypher queries a tool ran (with parameters and
timings) are left out unless the operator asked for them (`movieagent mcp --show-queries`,
stdio only: never for remote callers).
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from mcp import types
from pydantic import create_model

from semantic_layer.tools import Tool, ToolResult
from semantic_layer.tools.payloads import BUILT_IN_PAYLOADS, Rows


@cache
def result_schema(tool_name: str) -> dict[str, Any]:
    """`ToolResult`'s JSON schema, its `data` the payload `tool_name` returns (or null)."""
    payload = BUILT_IN_PAYLOADS.get(tool_name, Rows)
    camel = "".join(part.title() for part in tool_name.split("_"))
    model = create_model(f"{camel}Result", __base__=ToolResult, data=(payload | None, None))
    return model.model_json_schema(mode="serialization")


def definition(tool: Tool[Any]) -> types.Tool:
    write = tool.mode == "write"
    return types.Tool(
        name=tool.name,
        description=tool.description,
        input_schema=dict(tool.input_schema),  # what `movieagent tools --json` shows, too
        output_schema=result_schema(tool.name),
        annotations=types.ToolAnnotations(
            read_only_hint=not write,
            destructive_hint=write,  # a rating replaces the previous one
            idempotent_hint=True,
            open_world_hint=False,  # the graph only
        ),
    )


def sentence(result: ToolResult) -> str:
    """What a person (or the model) reads: the message, and the candidates to choose from."""
    text = result.message or ("Done." if result.ok else "The tool found nothing.")
    if result.candidates:
        choices = "\n".join(f"- {c.label}" for c in result.candidates)
        text = f"{text}\nWhich one? Call {result.tool} again with one of:\n{choices}"
    return text


def call_result(result: ToolResult, *, show_queries: bool = False) -> types.CallToolResult:
    """The result as structured content, and as text: its sentence, then the same JSON."""
    structured = result.model_dump(mode="json", exclude=None if show_queries else {"queries"})
    as_json = json.dumps(structured, ensure_ascii=False, separators=(",", ":"))
    return types.CallToolResult(
        content=[
            types.TextContent(type="text", text=sentence(result)),
            types.TextContent(type="text", text=as_json),
        ],
        structured_content=structured,
        is_error=result.kind == "error",
    )


def refusal(tool: str, text: str) -> types.CallToolResult:
    """A call we could not run (invalid arguments, a failure): a sentence, as an error."""
    return call_result(ToolResult(tool=tool, ok=False, kind="error", message=text))
