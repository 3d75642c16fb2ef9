"""Server-sent events as TGI and OpenAI-compatible servers send them: `data: {json}` lines."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx

from agent.llm.base import LLMTransientError


def events(response: httpx.Response) -> Iterator[dict[str, Any]]:
    """Each event's JSON payload, until `[DONE]` or the end of the stream."""
    for line in response.iter_lines():
        if not line.startswith("data:"):
            continue
        payload = line.removeprefix("data:").strip()
        if payload == "[DONE]":
            return
        try:
            event = json.loads(payload)
        except json.JSONDecodeError as e:
            raise LLMTransientError(f"unreadable event from the server: {payload[:120]!r}") from e
        if isinstance(event, dict):
            yield event


def error_body(response: httpx.Response) -> tuple[str, str]:
    """TGI's `{"error": ..., "error_type": ...}` (or whatever text came) from an error reply."""
    text = response.read().decode(errors="replace")
    try:
        body = json.loads(text)
    except json.JSONDecodeError:
        return text, ""
    if isinstance(body, dict):
        error = body.get("error")
        if isinstance(error, dict):  # OpenAI style: {"error": {"message": ...}}
            return str(error.get("message", error)), str(error.get("type", ""))
        return str(error or text), str(body.get("error_type", ""))
    return text, ""
