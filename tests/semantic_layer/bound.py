"""Tools with a context at hand, for tests that call one tool many times as one user."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from semantic_layer.graph import Graph
from semantic_layer.session import Session
from semantic_layer.tools import Tool, ToolContext, ToolResult, build_tools


@dataclass
class BoundTool:
    tool: Tool[Any]
    context: ToolContext

    @property
    def name(self) -> str:
        return self.tool.name

    @property
    def input_schema(self) -> dict[str, Any]:
        return self.tool.input_schema

    def invoke(self, arguments: dict[str, Any]) -> ToolResult:
        return self.tool.run(arguments, self.context)


def bound_tools(
    graph: Graph, session: Session, folders: Iterable[Path] | None = None
) -> dict[str, BoundTool]:
    context = ToolContext(graph, session)
    return {t.name: BoundTool(t, context) for t in build_tools(folders)}
