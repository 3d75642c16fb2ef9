"""Asking the user which movie they meant, where the client can ask (MCP elicitation).

An ambiguous title makes a tool return candidates. On a 2026-07-28 connection whose client
declared elicitation, the server returns an `InputRequiredResult` with a one-field form (the
candidates as an enum); the client asks the user and calls the same tool again with the answer,
which replaces the ambiguous argument. Elsewhere, or when the user declines, the candidates
come back as the result, for the model to ask in words.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mcp import types

from semantic_layer.normalize import fold
from semantic_layer.tools import ToolResult

KEY = "movieagent/choice"
FIRST_MODERN_VERSION = "2026-07-28"


def can_ask(protocol_version: str, capabilities: types.ClientCapabilities | None) -> bool:
    return protocol_version >= FIRST_MODERN_VERSION and bool(
        capabilities is not None and capabilities.elicitation is not None
    )


def question(result: ToolResult) -> types.InputRequiredResult:
    labels = [c.label for c in result.candidates]
    form = types.ElicitRequestFormParams(
        message=result.message or "Which one do you mean?",
        requested_schema={
            "type": "object",
            "properties": {"choice": {"type": "string", "title": "Which one?", "enum": labels}},
            "required": ["choice"],
        },
    )
    return types.InputRequiredResult(
        input_requests={KEY: types.ElicitRequest(params=form)}, request_state=result.tool
    )


def replied(params: types.CallToolRequestParams) -> bool:
    """Whether this call is the retry after the question (accepted, declined or cancelled)."""
    return KEY in (params.input_responses or {})


def answer(params: types.CallToolRequestParams) -> str | None:
    """The candidate the user accepted on this retry, if any."""
    reply = (params.input_responses or {}).get(KEY)
    if not isinstance(reply, types.ElicitResult) or reply.action != "accept" or not reply.content:
        return None
    choice = reply.content.get("choice")
    return choice if isinstance(choice, str) and choice else None


def with_choice(arguments: Mapping[str, Any], choice: str) -> dict[str, Any]:
    """`arguments` with the ambiguous title (a string the choice starts with) replaced."""
    chosen = fold(choice)
    out = dict(arguments)
    for key, value in arguments.items():
        if isinstance(value, str) and value.strip() and chosen.startswith(fold(value).strip()):
            out[key] = choice
            break
    return out
