"""Our tools as LangChain `BaseTool`s, for any LangChain or LangGraph agent.

    binding = ToolBinding(ToolContext(graph, session))
    lc_tools = as_langchain_tools(build_tools(), binding)
    agent = create_agent(model, lc_tools)       # LangGraph, AgentExecutor, bind_tools, ...

The session is bound here, in the adapter, not in the tools: every LangChain tool of one
`ToolBinding` runs `Tool.run` with the binding's context. A tool returns the Observation text
our own agent reads and, as the artifact, the `ToolResult` (`response_format=
"content_and_artifact"`: a LangGraph `ToolMessage` carries both). When a result gives a guest a
user id, the binding switches to that user for the next calls; `binding.context.session` says
who the conversation belongs to now. LangChain gets the input model's JSON schema, so the
arguments are validated once, by `Tool.parse`: invalid ones raise `ToolException` with our
sentence (`handle_tool_error=True` on a tool sends it back to the model instead).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from langchain_core.callbacks import CallbackManagerForToolRun
from langchain_core.tools import BaseTool, ToolException
from pydantic import ConfigDict, Field

from semantic_layer.errors import ToolArgumentsError
from semantic_layer.tools.contract import Tool, ToolContext
from semantic_layer.tools.result import ToolResult

#: called after each call: the tool's name, its validated arguments (JSON), the result, ms
CallRecorder = Callable[[str, dict[str, Any], ToolResult, float], None]


@dataclass
class ToolBinding:
    """The context the adapted tools run against; a new user id switches it."""

    context: ToolContext
    on_call: CallRecorder | None = None

    def note(self, result: ToolResult) -> None:
        if result.new_user_id is not None:
            self.context = self.context.as_user(result.new_user_id)


class LangChainTool(BaseTool):
    """One of our tools behind LangChain's `BaseTool` interface."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    tool: Any = Field(exclude=True)  # semantic_layer.tools.contract.Tool
    binding: Any = Field(exclude=True)  # ToolBinding
    response_format: Literal["content", "content_and_artifact"] = "content_and_artifact"

    def _run(
        self,
        *args: Any,
        run_manager: CallbackManagerForToolRun | None = None,
        **kwargs: Any,
    ) -> tuple[str, ToolResult]:
        tool: Tool[Any] = self.tool
        binding: ToolBinding = self.binding
        try:  # LangChain has a JSON schema only: this is the one validation
            arguments = tool.parse(args[0] if args else kwargs)
        except ToolArgumentsError as e:
            raise ToolException(f"Invalid arguments for {tool.name}: {e}.") from e
        started = time.perf_counter()
        try:  # the names linked to the graph, as the agent's calls are (`Tool.check`)
            arguments = tool.check(arguments, binding.context)
            result = tool.run(arguments, binding.context)
        except ToolArgumentsError as e:  # a name of the wrong kind: an Observation, as a miss is
            result = ToolResult(tool=tool.name, ok=False, kind="error", message=str(e))
        binding.note(result)
        if binding.on_call is not None:
            used = arguments.model_dump(mode="json", exclude_unset=True)
            binding.on_call(tool.name, used, result, (time.perf_counter() - started) * 1000)
        return result.observation(), result


def as_langchain_tools(tools: Sequence[Tool[Any]], binding: ToolBinding) -> list[BaseTool]:
    """`tools` as LangChain tools running against `binding` (same names, descriptions, models)."""
    return [
        LangChainTool(
            name=tool.name,
            description=tool.description,
            args_schema=tool.input_model.model_json_schema(),  # as LangChain renders a model
            tool=tool,
            binding=binding,
            metadata={"mode": tool.mode},
        )
        for tool in tools
    ]
