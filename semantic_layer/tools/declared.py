"""Tools declared by `.cypher` files: a header (see `header.py`) becomes a typed `Tool`.

At start-up every `*.cypher` file in the tool folders (`cypher/tools/`, plus any folder in
`MOVIEAGENT_TOOLS_DIR`, separated by the path separator) becomes a `DeclaredTool` with a
generated Pydantic input model, validated like the built-in tools. The query runs in a read
transaction unless the header says `mode: write`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, create_model

from semantic_layer.errors import ToolArgumentsError, ToolDeclarationError
from semantic_layer.graph.queries import default_cypher_root
from semantic_layer.linking.arguments import entity
from semantic_layer.resolve import resolve_movie, resolve_person
from semantic_layer.resolve.kind import Fit, fit, other
from semantic_layer.session import Session
from semantic_layer.settings import GraphSettings
from semantic_layer.tools.contract import Tool, ToolContext, writing_user
from semantic_layer.tools.genre import Genre
from semantic_layer.tools.header import ParamSpec, ToolSpec, parse_tool_file
from semantic_layer.tools.payloads import Rows
from semantic_layer.tools.result import ToolResult
from semantic_layer.tools.trace import TracedGraph

MAX_ROWS = 50
_PLAIN: dict[str, type] = {"string": str, "integer": int, "number": float, "boolean": bool}
_RESOLVED_HINT = {
    "movie": " (a movie title; the best match is looked up, ambiguous titles ask back)",
    "person": " (a person's name; misspellings are looked up)",
}


class DeclaredTool(Tool[BaseModel]):
    """A tool whose query and typed parameters come from a `.cypher` file (parsed once)."""

    def __init__(self, spec: ToolSpec) -> None:
        self.spec = spec
        self.name = spec.name
        self.description = spec.description
        self.input_model = input_model(spec)
        self.mode = spec.mode
        self.source = spec.path

    def check(self, arguments: BaseModel, ctx: ToolContext) -> BaseModel:
        """A `movie` or `person` parameter must name one: a film given as a person ("movies
        together" with a title and a genre) is sent back, saying what it is instead."""
        if ctx.graph is None:
            return arguments
        arguments = super().check(arguments, ctx)  # a name inside what the model wrote
        graph = TracedGraph(ctx.graph)
        problems = []
        for param in self.spec.params:
            value = getattr(arguments, param.name)
            if param.type not in ("movie", "person") or not isinstance(value, str):
                continue
            here = fit(graph, value, param.type)
            there = fit(graph, value, other(param.type))
            if here == Fit.NONE or (here == Fit.LOOSE and there == Fit.BY_NAME):
                instead = f", it is a {other(param.type)}" if there == Fit.BY_NAME else ""
                problems.append(f"{param.name}: {value!r} is not a {param.type}{instead}")
        if problems:
            raise ToolArgumentsError("; ".join(problems))
        return arguments

    def execute(self, arguments: BaseModel, graph: TracedGraph, session: Session) -> ToolResult:
        values: dict[str, Any] = {}
        notes: list[str] = []
        for param in self.spec.params:
            value = getattr(arguments, param.name)
            if value is not None and param.type == "movie":
                movie = resolve_movie(graph, value)
                value = movie.movie_id
                notes.append(f"{param.name}: {movie.label}")
            elif value is not None and param.type == "person":
                person = resolve_person(graph, value)
                value = person.name
                notes.append(f"{param.name}: {person.name}")
            elif isinstance(value, Genre):
                value = value.value
            values[param.name] = value
        new_user = None
        if "$userId" in self.spec.cypher:
            user_id = session.user_id
            if self.spec.mode == "write":  # a guest's first write gets them an id of their own
                user_id, new_user = writing_user(graph, session)
            values["userId"] = user_id
        rows = graph.run_file_text(
            f"tools/{self.spec.name}", self.spec.cypher, values, write=self.spec.mode == "write"
        )
        shown = rows[:MAX_ROWS]
        more = f" (first {MAX_ROWS} shown)" if len(rows) > MAX_ROWS else ""
        about = f" for {'; '.join(notes)}" if notes else ""
        return ToolResult(
            tool=self.name,
            kind="rows",
            message=f"{len(rows)} rows{about}{more}.",
            data=Rows(shown),
            new_user_id=new_user,
        )


def input_model(spec: ToolSpec) -> type[BaseModel]:
    """The Pydantic model for a declared tool's parameters (extra keys are refused)."""
    fields: dict[str, Any] = {name: _field(p) for name, p in ((p.name, p) for p in spec.params)}
    camel = "".join(part.title() for part in spec.name.split("_"))
    return create_model(f"{camel}Input", __config__=ConfigDict(extra="forbid"), **fields)


def _field(param: ParamSpec) -> tuple[Any, Any]:
    annotation: Any
    if param.enum is not None:
        annotation = Literal[tuple(param.enum)]
    elif param.type == "genre":
        annotation = Genre
    else:
        annotation = _PLAIN.get(param.type, str)
    description = param.description + _RESOLVED_HINT.get(param.type, "")
    bounds: dict[str, Any] = {}
    if param.type not in _PLAIN:  # a resolved type: linked like any built-in tool's names
        bounds["json_schema_extra"] = entity(param.type)
    if param.min is not None:
        bounds["ge"] = param.min
    if param.max is not None:
        bounds["le"] = param.max
    if annotation is str and param.enum is None:  # text, or a name the graph holds
        bounds["min_length"] = 1
    if param.required:
        return annotation, Field(description=description, **bounds)
    if param.default is None:
        annotation = annotation | None
    return annotation, Field(default=param.default, description=description, **bounds)


def tool_dirs(env: Mapping[str, str] | None = None) -> list[Path]:
    """`cypher/tools/`, then the folders in `MOVIEAGENT_TOOLS_DIR`."""
    return [default_cypher_root() / "tools", *GraphSettings.from_env(env).extra_tool_dirs]


def declared_specs(folders: Iterable[Path], reserved: Iterable[str] = ()) -> list[ToolSpec]:
    """Every tool declared in `folders`, checked; a bad header or a duplicate name raises."""
    seen: dict[str, Path] = {name: Path("(built-in)") for name in reserved}
    specs: list[ToolSpec] = []
    for folder in folders:
        if not folder.is_dir():
            if folder.exists():
                raise ToolDeclarationError(f"{folder}: the tools folder is not a directory.")
            continue
        for path in sorted(folder.glob("*.cypher")):
            spec = parse_tool_file(path)
            if spec.name in seen:
                raise ToolDeclarationError(
                    f"{path}:1: a tool named {spec.name!r} already exists ({seen[spec.name]}); "
                    "pick another name."
                )
            seen[spec.name] = path
            specs.append(spec)
    return specs
