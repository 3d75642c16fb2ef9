"""The tool contract: a typed tool built once per process, called with a context per call.

A `Tool` has a name, a description (what the model reads), an input model (Pydantic), a mode
(`read`, or `write` when a call may change the graph) and `run(arguments, ctx)`. The session and
the graph come in the `ToolContext` at call time, so one tool object serves every turn and
every user. Arguments are validated once, by `parse`, into the input model; `execute` gets the
validated model. A tool never changes the session: when a call gives a guest a user id of their
own, its `ToolResult.new_user_id` says so and the front end switches its session.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ValidationError

from semantic_layer.errors import (
    AmbiguousEntityError,
    EntityNotFoundError,
    SemanticLayerError,
    ToolArgumentsError,
)
from semantic_layer.graph import Graph
from semantic_layer.linking.arguments import link_arguments
from semantic_layer.session import Session
from semantic_layer.text_safety import clean_value
from semantic_layer.tools.result import ToolResult
from semantic_layer.tools.schema import input_schema
from semantic_layer.tools.trace import TracedGraph
from semantic_layer.users import new_user_id

Mode = Literal["read", "write"]


@dataclass(frozen=True)
class ToolContext:
    """What one call runs against: the graph, and who is asking (bound by the application)."""

    graph: Graph | None = None
    session: Session = field(default_factory=Session)

    def as_user(self, user_id: int) -> ToolContext:
        """The same context for `user_id` (a guest who just got an id of their own)."""
        return replace(self, session=replace(self.session, user_id=user_id, read_only=False))


class Tool[InputT: BaseModel](ABC):
    """A typed tool over the graph. It returns a `ToolResult` and never raises for the user's
    input: an ambiguous name becomes candidates, anything else a sentence to act on."""

    name: str
    description: str
    input_model: type[InputT]
    mode: Mode = "read"
    source: Path | None = None  # the `.cypher` file of a declared tool

    @cached_property
    def input_schema(self) -> dict[str, Any]:
        """The input model as self-contained JSON Schema (what prompts and grammars show)."""
        return input_schema(self.input_model)

    @cached_property
    def required_fields(self) -> frozenset[str]:
        """The arguments a call cannot leave out."""
        return frozenset(n for n, f in self.input_model.model_fields.items() if f.is_required())

    def parse(self, raw: Any) -> InputT:
        """The arguments as the input model accepts them, or `ToolArgumentsError`.

        A bare string is read as JSON if it parses, else as the value of the only (or only
        required) argument, as small models and LangChain's single-input agents send it.
        """
        if isinstance(raw, self.input_model):
            return raw
        if isinstance(raw, str):
            raw = self._single_argument(raw)
        if not isinstance(raw, Mapping):
            raise ToolArgumentsError(f"arguments must be a JSON object, not {type(raw).__name__}")
        try:
            return self.input_model.model_validate(clean_value(dict(raw)))
        except ValidationError as e:
            raise ToolArgumentsError("; ".join(_describe(err) for err in e.errors())) from e

    def run(self, arguments: InputT | Mapping[str, Any] | str, ctx: ToolContext) -> ToolResult:
        """Validate `arguments` (unless already validated) and run the tool for `ctx`."""
        args = self.parse(arguments)
        traced = TracedGraph(ctx.graph, before_write=ctx.session.require_writable)
        try:
            result = self.execute(args, traced, ctx.session)
        except AmbiguousEntityError as e:
            result = ToolResult(
                tool=self.name, ok=False, kind="candidates", message=str(e),
                candidates=e.candidates, unmatched=e.typed if e.loose else None,
            )  # fmt: skip
        except EntityNotFoundError as e:
            result = ToolResult(
                tool=self.name, ok=False, kind="error", message=str(e), unmatched=e.typed
            )
        except SemanticLayerError as e:
            result = ToolResult(tool=self.name, ok=False, kind="error", message=str(e))
        result.queries = traced.queries + result.queries
        return result

    def check(self, arguments: InputT, ctx: ToolContext) -> InputT:
        """The validated arguments as they should run, checked against the graph before the
        call (the agent does it before it runs a call): each argument that names a movie or a
        person is linked to the graph (`semantic_layer.linking.arguments`); a tool may also
        read a name as the kind the graph knows it as, or raise `ToolArgumentsError` saying
        what a name is not."""
        if ctx.graph is None:
            return arguments
        return link_arguments(arguments, TracedGraph(ctx.graph))

    @abstractmethod
    def execute(self, arguments: InputT, graph: TracedGraph, session: Session) -> ToolResult:
        """Run on validated `arguments` for `session`; queries go through `graph` to be traced."""

    def _single_argument(self, text: str) -> Any:
        try:
            return json.loads(text)
        except json.JSONDecodeError:
            pass
        fields = list(self.input_model.model_fields)
        required = [n for n in fields if n in self.required_fields]
        if len(fields) == 1 or len(required) == 1:
            return {(required or fields)[0]: text}
        return text

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name} ({self.mode})>"


def writing_user(graph: TracedGraph, session: Session) -> tuple[int, int | None]:
    """Who a write is stored for, and the new user id when a guest gets one now.

    The id comes from the session, never from the model's arguments; a guest's first write
    allocates a fresh id (`semantic_layer.users.new_user_id`), which the caller reports in
    `ToolResult.new_user_id` instead of changing the session.
    """
    session.require_writable()
    if not session.is_guest:
        return session.user_id, None
    user_id = new_user_id(graph)
    return user_id, user_id


def _describe(error: Any) -> str:
    where = ".".join(str(part) for part in error.get("loc", ())) or "arguments"
    return f"{where}: {error.get('msg', 'invalid')}"
