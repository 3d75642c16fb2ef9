"""Checks a tool call's arguments before running it, and runs it without ever raising.

Invalid arguments become an `ArgumentsError` whose text goes back to the model; a tool that
raises becomes a `ToolResult` with `ok=False` that the model reads like any other Observation.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from langchain_core.tools import BaseTool
from pydantic import BaseModel, ValidationError

from agent.errors import AgentError
from semantic_layer.tools.payloads import Record
from semantic_layer.tools.result import ToolResult

log = logging.getLogger(__name__)


class ArgumentsError(AgentError):
    """The model's arguments do not fit the tool's input model; the text says what is wrong."""


def validate_arguments(tool: BaseTool, raw: Any) -> dict[str, Any]:
    """The arguments as the tool's input model accepts them, or `ArgumentsError`."""
    model = _input_model(tool)
    if isinstance(raw, str):
        raw = _single_argument(model, raw)
    if not isinstance(raw, dict):
        raise ArgumentsError(f"action_input must be a JSON object, not {type(raw).__name__}")
    if model is None:
        return raw
    try:
        validated = model.model_validate(raw)
    except ValidationError as e:
        raise ArgumentsError("; ".join(_describe(err) for err in e.errors())) from e
    return validated.model_dump(mode="json", exclude_unset=True)


def describe_arguments(tool: BaseTool) -> str:
    """`name (type), ...` for the correction message."""
    args = tool.args
    return ", ".join(f"{name} ({spec.get('type', 'any')})" for name, spec in args.items()) or "none"


def run_tool(tool: BaseTool, arguments: dict[str, Any]) -> ToolResult:
    """Run a tool; whatever it returns or raises comes back as a `ToolResult`."""
    try:
        output = tool.invoke(arguments)
    except Exception as e:  # a failing tool is an Observation, not the end of the conversation
        log.warning("tool %s failed: %s", tool.name, e, exc_info=True)
        return ToolResult(
            tool=tool.name, ok=False, kind="error", message=f"{type(e).__name__}: {e}"
        )
    if isinstance(output, ToolResult):
        return output
    if isinstance(output, BaseModel):
        return ToolResult(tool=tool.name, kind="rows", data=Record(output.model_dump(mode="json")))
    return ToolResult(tool=tool.name, kind="text", message=str(output))


def _input_model(tool: BaseTool) -> type[BaseModel] | None:
    schema = tool.args_schema
    return schema if isinstance(schema, type) and issubclass(schema, BaseModel) else None


def _single_argument(model: type[BaseModel] | None, text: str) -> Any:
    """A bare string for a tool: JSON if it parses, else the value of its only argument."""
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        pass
    if model is None:
        return text
    fields = list(model.model_fields)
    required = [n for n, f in model.model_fields.items() if f.is_required()]
    if len(fields) == 1 or len(required) == 1:
        return {(required or fields)[0]: text}
    return text


def _describe(error: Any) -> str:
    where = ".".join(str(part) for part in error.get("loc", ())) or "arguments"
    return f"{where}: {error.get('msg', 'invalid')}"
