"""The base of every graph tool: typed input, a traced graph, and errors turned into results."""

from __future__ import annotations

from abc import abstractmethod
from typing import Any, Literal

from langchain_core.tools import BaseTool
from pydantic import BaseModel, ConfigDict, Field

from semantic_layer.errors import AmbiguousEntityError, SemanticLayerError
from semantic_layer.graph import Graph
from semantic_layer.session import Session
from semantic_layer.text_safety import clean_value
from semantic_layer.tools.result import ToolResult
from semantic_layer.tools.trace import TracedGraph


class GraphTool(BaseTool):
    """A LangChain tool over the graph that returns a `ToolResult` and never raises for the
    user's input: an ambiguous name becomes candidates, anything else a sentence to act on."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    graph: Graph = Field(exclude=True)
    session: Session = Field(exclude=True)
    #: "write" when a call may change the graph (its queries run in write transactions)
    mode: Literal["read", "write"] = Field(default="read", exclude=True)

    def input_model(self) -> type[BaseModel]:
        schema = self.args_schema
        assert isinstance(schema, type) and issubclass(schema, BaseModel)
        return schema

    def _run(self, *args: Any, **kwargs: Any) -> ToolResult:
        kwargs.pop("run_manager", None)
        arguments = self.input_model().model_validate(clean_value(kwargs))
        traced = TracedGraph(self.graph, before_write=self.session.require_writable)
        try:
            result = self.execute(arguments, traced)
        except AmbiguousEntityError as e:
            result = ToolResult(
                tool=self.name, ok=False, kind="candidates", message=str(e), candidates=e.candidates
            )
        except SemanticLayerError as e:
            result = ToolResult(tool=self.name, ok=False, kind="error", message=str(e))
        result.queries = traced.queries + result.queries
        return result

    @abstractmethod
    def execute(self, arguments: Any, graph: TracedGraph) -> ToolResult:
        """Run the tool on validated `arguments`; queries go through `graph` to be traced."""
