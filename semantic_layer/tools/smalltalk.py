"""Smalltalk: greetings and chit-chat, steered back to movies. Touches no database."""

from __future__ import annotations

from pydantic import Field

from semantic_layer.session import Session
from semantic_layer.tools.contract import Tool
from semantic_layer.tools.payloads import SmalltalkReply
from semantic_layer.tools.result import ToolResult
from semantic_layer.tools.strict import StrictInput
from semantic_layer.tools.trace import TracedGraph

# short: a small model repeats it as its answer, and every token of an answer is waited for;
# no example titles or names: a small model copies them into its answer as if they were facts
REPLY = (
    "I'm a movie assistant: I recommend movies, tell you who made or starred in a film, and "
    "remember your ratings."
)


class SmalltalkInput(StrictInput):
    query: str | None = Field(
        default=None,
        description="The user's greeting or chit-chat, e.g. 'hi' or 'thanks!'.",
    )


class Smalltalk(Tool[SmalltalkInput]):
    name = "smalltalk"
    description = (
        "For greetings, thanks and anything not about movies (jokes, poems, weather, sums, "
        "cooking): says what this assistant can do, to steer back to movies."
    )
    input_model = SmalltalkInput

    def execute(self, args: SmalltalkInput, graph: TracedGraph, session: Session) -> ToolResult:
        return ToolResult(
            tool=self.name, kind="text", message=REPLY, data=SmalltalkReply(examples=[])
        )
