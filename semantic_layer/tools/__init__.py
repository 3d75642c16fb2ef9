"""The typed tools the agent can call (see `contract.Tool`), and `build_tools` that gathers them.

Built-in: recommender, film_facts (the Information family), memory, my_rating, smalltalk.
Declared: one per `.cypher` file in `cypher/tools/` (and `MOVIEAGENT_TOOLS_DIR`), see
`semantic_layer.tools.header`. Tools hold no session or graph: build them once per process and
pass a `ToolContext` to each `run`.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from semantic_layer.tools.contract import Tool, ToolContext
from semantic_layer.tools.declared import DeclaredTool, declared_specs, tool_dirs
from semantic_layer.tools.information import Information
from semantic_layer.tools.memory import Memory
from semantic_layer.tools.my_rating import MyRating
from semantic_layer.tools.recommender import Recommender
from semantic_layer.tools.result import Candidate, QueryTrace, ToolResult
from semantic_layer.tools.smalltalk import Smalltalk

BUILT_IN: tuple[type[Tool[Any]], ...] = (Recommender, Information, Memory, MyRating, Smalltalk)


def build_tools(folders: Iterable[Path] | None = None) -> list[Tool[Any]]:
    """Every tool: the built-ins, then the declared ones (each `.cypher` header parsed once).

    `folders` replaces the declared-tool folders (default `cypher/tools/` and
    `MOVIEAGENT_TOOLS_DIR`). A malformed declaration raises `ToolDeclarationError` naming
    the file and line.
    """
    tools: list[Tool[Any]] = [cls() for cls in BUILT_IN]
    names = [t.name for t in tools]
    specs = declared_specs(tool_dirs() if folders is None else folders, reserved=names)
    return tools + [DeclaredTool(spec) for spec in specs]


__all__ = [
    "BUILT_IN",
    "Candidate",
    "QueryTrace",
    "Tool",
    "ToolContext",
    "ToolResult",
    "build_tools",
]
