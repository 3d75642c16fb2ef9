"""What one question produced under one subject (our agent or the baseline), before scoring."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from pydantic import BaseModel, Field, ValidationError

from semantic_layer.tools.contract import Tool

Ending = Literal["answer", "step_limit", "parse_error", "error"]


class ToolUse(BaseModel):
    tool: str
    #: the arguments the call ran with: those written and the defaults of the others (`ran_with`)
    input: dict[str, Any] = Field(default_factory=dict)
    ms: float = 0.0
    ok: bool = True
    wrote: bool = False  # the call wrote to the graph (`evaluation.seen.wrote`)


def ran_with(tools: Sequence[Tool[Any]], name: str, written: dict[str, Any]) -> dict[str, Any]:
    """The arguments a call to `name` ran with: those `written` and the defaults of those it
    left out (a film's facts are a movie's unless the call says a person), so an argument left
    at its default is scored as that value. As written where the tool is unknown or they do
    not validate."""
    tool = next((t for t in tools if t.name == name), None)
    if tool is None:
        return written
    try:
        defaults = tool.input_model.model_validate(written).model_dump(mode="json")
    except ValidationError:
        return written
    return {**defaults, **written}


class Outcome(BaseModel):
    """One question's run: the answer, the tool calls in order, the model's cost, the time."""

    id: str
    category: str
    language: str
    subject: str
    answer: str = ""
    tools: list[ToolUse] = Field(default_factory=list)
    llm_calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    parse_failures: int = 0  # model replies that could not be read as a step
    ending: Ending = "answer"
    error: str | None = None
    ms: float = 0.0
    invented: list[str] = Field(default_factory=list)  # names/relations no returned row holds
    writes: list[str] = Field(default_factory=list)  # tools whose call wrote to the graph, in order
    cut: bool = False  # the answer stops mid-sentence
    answer_language: str | None = None  # the language the answer is written in; None: no answer
    replies: list[str] = Field(default_factory=list)  # the model's raw replies, thoughts included
