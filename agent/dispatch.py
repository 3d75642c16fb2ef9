"""Runs a tool call without ever raising: the tool's own `parse` validates, `run` runs.

Invalid arguments raise `ToolArgumentsError` (from `Tool.parse`), whose text goes back to the
model; a tool that raises becomes a `ToolResult` with `ok=False` that the model reads like any
other Observation.
"""

from __future__ import annotations

import logging
from typing import Any

from pydantic import BaseModel

from semantic_layer.errors import ToolArgumentsError
from semantic_layer.tools.contract import Tool, ToolContext
from semantic_layer.tools.result import ToolResult

log = logging.getLogger(__name__)


def describe_arguments(tool: Tool[Any]) -> str:
    """`name (type), ...` for the correction message."""
    props = tool.input_schema.get("properties", {})
    return (
        ", ".join(f"{name} ({spec.get('type', 'any')})" for name, spec in props.items()) or "none"
    )


def check_arguments(
    tool: Tool[Any], arguments: BaseModel, ctx: ToolContext
) -> tuple[BaseModel, str | None]:
    """`tool.check` without raising: the arguments to run, and what is wrong with them (None:
    nothing). A check that fails for another reason is skipped; the call will say it."""
    try:
        return tool.check(arguments, ctx), None
    except ToolArgumentsError as e:
        return arguments, str(e)
    except Exception as e:
        log.warning("tool %s: check skipped: %s", tool.name, e)
        return arguments, None


def run_tool(tool: Tool[Any], arguments: BaseModel, ctx: ToolContext) -> ToolResult:
    """Run a tool on validated `arguments`; whatever it returns or raises is a `ToolResult`."""
    try:
        return tool.run(arguments, ctx)
    except Exception as e:  # a failing tool is an Observation, not the end of the conversation
        log.warning("tool %s failed: %s", tool.name, e, exc_info=True)
        return ToolResult(
            tool=tool.name, ok=False, kind="error", message=f"{type(e).__name__}: {e}"
        )
