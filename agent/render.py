"""Placeholder: replaced by the rendering module (answers written from the rows)."""

from __future__ import annotations

from collections.abc import Sequence

from semantic_layer.tools.result import ToolResult


def render_answer(results: Sequence[ToolResult | None], language: str) -> str:
    for result in reversed(results):
        if result is not None and result.message:
            return result.message
    return "I'm a movie assistant: I recommend movies, tell you who made or starred in a film, and remember your ratings."
