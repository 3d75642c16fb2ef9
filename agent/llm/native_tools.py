"""Native tool calling: OpenAI's `tools`/`tool_choice` out, the loop's JSON step back in.

In native mode (`openai+http://host:8000/v1?tools=native`) the OpenAI-compatible backend sends
each tool as an OpenAI `tools` entry (its input model's JSON schema and its description) with the
step's `tool_choice` ("required" on a tool-first step, "none" on the final-only step, else
"auto") and no `response_format`: the server's tool parser (vLLM's `--tool-call-parser`,
llama-cpp-python's `chatml-function-calling`) reads the call. `NativeReply` turns the streamed
reply back into the text of the JSON step the loop already parses, so validation, corrections
and the answer stream stay the loop's:

- `tool_calls` deltas (a name, then argument fragments, per `index`) become
  `{"action": name, "action_input": arguments}` once the reply ends. Only the
  first call counts (the loop runs one tool a step); arguments that are not JSON go through as a
  string, so validation sends the problem back to the model as an Observation.
- Plain-text content becomes a Final Answer blob as it arrives, so the answer streams live.
- Content that opens with `{` or a fence (the model wrote a ReAct step, as the prompt shows it)
  goes through as it is.

The history keeps the ReAct format (the step as assistant JSON text, the Observation as a user
turn) rather than `tool` messages with `tool_call_id`: every server and chat template takes it
(Mixtral's has no tool role and demands alternation), the prompt and the loop are the same in
both modes, and an eval of the two modes differs only in how a tool is called.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, Literal, get_args

from agent.grammar import FINAL_ANSWER
from agent.llm.base import LLMRequest, ToolSpec
from semantic_layer.tools.contract import Tool

ToolMode = Literal["react", "native"]
TOOL_MODES: tuple[str, ...] = get_args(ToolMode)
_ANSWER_OPEN = json.dumps({"action": FINAL_ANSWER, "action_input": ""})[:-2]
_ANSWER_CLOSE = '"}'


def tool_specs(tools: Sequence[Tool[Any]]) -> list[ToolSpec]:
    """Each tool with its description and argument schema (references inlined, no titles)."""
    return [
        ToolSpec(
            name=tool.name,
            description=tool.description,
            parameters=_untitled(tool.input_schema),
        )
        for tool in tools
    ]


def tools_body(request: LLMRequest) -> dict[str, Any]:
    """The `tools` and `tool_choice` body fields for `request` (nothing when it has no tools)."""
    if not request.tools:
        return {}
    tools = [
        {
            "type": "function",
            "function": {"name": t.name, "description": t.description, "parameters": t.parameters},
        }
        for t in request.tools
    ]
    return {"tools": tools, "tool_choice": request.tool_choice}


class NativeReply:
    """Feed it each streamed delta; it returns the text of the equivalent JSON step."""

    def __init__(self) -> None:
        self._lead = ""  # leading whitespace, until the content shows its kind
        self._content: Literal["answer", "raw"] | None = None
        self._calls: dict[int, dict[str, Any]] = {}

    def feed(self, delta: dict[str, Any]) -> str:
        for position, call in enumerate(delta.get("tool_calls") or []):
            self._add_call(call, position)
        text = delta.get("content") or ""
        if not text:
            return ""
        if self._content is None:
            self._lead += text
            start = self._lead.lstrip()
            if not start:
                return ""
            if start[0] in "{`":
                self._content = "raw"
                return start
            self._content = "answer"
            return _ANSWER_OPEN + _escape(start)
        return _escape(text) if self._content == "answer" else text

    def finish(self) -> str:
        """What is left to say once the reply has ended."""
        tail = _ANSWER_CLOSE if self._content == "answer" else ""
        if not self._calls:
            return tail
        call = self._calls[min(self._calls)]
        step = {"action": call["name"], "action_input": _arguments(call["args"])}
        return tail + ("\n" if self._content else "") + json.dumps(step, ensure_ascii=False)

    def _add_call(self, delta: Any, position: int) -> None:
        if not isinstance(delta, dict):
            return
        index = delta.get("index", position)
        call = self._calls.setdefault(index if isinstance(index, int) else position, {})
        function = delta.get("function") or {}
        name = function.get("name") or ""
        if name and name != call.get("name"):
            call["name"] = call.get("name", "") + name
        call.setdefault("name", "")
        arguments = function.get("arguments")
        if isinstance(arguments, dict):  # some servers send the whole object at once
            call["args"] = arguments
        elif arguments:
            call["args"] = str(call.get("args", "")) + arguments
        call.setdefault("args", "")


def _arguments(raw: Any) -> Any:
    if not isinstance(raw, str):
        return raw
    if not raw.strip():
        return {}
    try:
        return json.loads(raw)
    except json.JSONDecodeError:
        return raw  # validation tells the model what is wrong


def _escape(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)[1:-1]


def _untitled(node: Any) -> Any:
    if isinstance(node, list):
        return [_untitled(v) for v in node]
    if not isinstance(node, dict):
        return node
    return {
        k: ({n: _untitled(p) for n, p in v.items()} if k == "properties" else _untitled(v))
        for k, v in node.items()
        if k != "title" or not isinstance(v, str)
    }
