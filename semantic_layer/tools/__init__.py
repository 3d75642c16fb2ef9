"""The typed tools the agent can call, and `build_tools` that gathers them.

Built-in: recommender, information, memory, smalltalk. Declared: one per `.cypher` file in
`cypher/tools/` (and `MOVIEAGENT_TOOLS_DIR`), see `semantic_layer.tools.header`.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from langchain_core.tools import BaseTool

from semantic_layer.graph import Graph
from semantic_layer.session import Session
from semantic_layer.tools.base import GraphTool
from semantic_layer.tools.declared import declared_specs, declared_tool, tool_dirs
from semantic_layer.tools.information import Information
from semantic_layer.tools.memory import Memory
from semantic_layer.tools.recommender import Recommender
from semantic_layer.tools.result import Candidate, QueryTrace, ToolResult
from semantic_layer.tools.smalltalk import Smalltalk

BUILT_IN: tuple[type[GraphTool], ...] = (Recommender, Information, Memory, Smalltalk)


def build_tools(
    graph: Graph, session: Session, *, folders: Iterable[Path] | None = None
) -> list[BaseTool]:
    """Every tool bound to `graph` and `session`: the built-ins, then the declared ones.

    `folders` replaces the declared-tool folders (default `cypher/tools/` and
    `MOVIEAGENT_TOOLS_DIR`). A malformed declaration raises `ToolDeclarationError` naming
    the file and line.
    """
    tools: list[BaseTool] = [cls(graph=graph, session=session) for cls in BUILT_IN]  # type: ignore[call-arg]
    names = [t.name for t in tools]
    specs = declared_specs(tool_dirs() if folders is None else folders, reserved=names)
    tools += [declared_tool(spec, graph, session) for spec in specs]
    return tools


__all__ = [
    "BUILT_IN",
    "Candidate",
    "GraphTool",
    "QueryTrace",
    "ToolResult",
    "build_tools",
]
