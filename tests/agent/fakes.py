"""A scripted model and scripted tools: the agent's tests never need a live LLM or graph."""

from __future__ import annotations

import json
from collections.abc import Iterator
from enum import StrEnum
from typing import Any, Literal

from pydantic import BaseModel, Field

from agent.llm.base import LLM, LLMChunk, LLMRequest, LLMTransientError, TokenUsage
from semantic_layer.tools.contract import Tool, ToolContext
from semantic_layer.tools.result import Candidate, QueryTrace, ToolResult


class ScriptedLLM(LLM):
    """Replies from a queue, in pieces of a few characters; records every request it got."""

    def __init__(
        self,
        *replies: str | Exception,
        chunk: int = 7,
        finish: str = "eos_token",
        context: int | None = None,
    ) -> None:
        self.replies: list[str | Exception] = list(replies)
        self.requests: list[LLMRequest] = []
        self.chunk = chunk
        self.finish = finish
        self.context = context  # the window it states (None: unknown, the agent's default)

    def context_window(self) -> int | None:
        return self.context

    def enqueue(self, *replies: str | Exception) -> None:
        self.replies.extend(replies)

    def describe(self) -> str:
        return "scripted model"

    def stream(self, request: LLMRequest) -> Iterator[LLMChunk]:
        self.requests.append(request)
        reply = self.replies.pop(0) if self.replies else final("(no more scripted replies)")
        if isinstance(reply, Exception):
            raise reply
        for i in range(0, len(reply), self.chunk):
            yield LLMChunk(text=reply[i : i + self.chunk])
        usage = TokenUsage(prompt_tokens=100, completion_tokens=max(1, len(reply) // 4))
        yield LLMChunk(finish_reason=self.finish, usage=usage)


class FlakyLLM(ScriptedLLM):
    """Fails with a transient error `failures` times before replying."""

    def __init__(self, failures: int, *replies: str) -> None:
        super().__init__(*[LLMTransientError("HTTP 503") for _ in range(failures)], *replies)


def call(tool: str, thought: str = "I need the graph.", **args: Any) -> str:
    return json.dumps({"thought": thought, "action": tool, "action_input": args})


def final(answer: str, thought: str = "I can answer now.") -> str:
    return json.dumps({"thought": thought, "action": "Final Answer", "action_input": answer})


class Genre(StrEnum):
    COMEDY = "Comedy"
    DRAMA = "Drama"
    CRIME = "Crime"


class RecommenderInput(BaseModel):
    movie: str | None = Field(None, description="A movie the user liked.")
    genre: Genre | None = Field(None, description="A genre to recommend from.")


class InformationInput(BaseModel):
    entity: str = Field(description="A movie title or a person's name.")
    entity_type: Literal["movie", "person"] = "movie"


class NoInput(BaseModel):
    pass


class ScriptedTool(Tool[Any]):
    """Returns queued `ToolResult`s (or a default one) and records its calls (and contexts)."""

    def __init__(
        self,
        name: str,
        description: str,
        input_model: type[BaseModel] = NoInput,
        results: list[ToolResult] | None = None,
    ) -> None:
        self.name, self.description, self.input_model = name, description, input_model
        self.results: list[ToolResult] = list(results or [])
        self.calls: list[dict[str, Any]] = []
        self.contexts: list[ToolContext] = []

    def run(self, arguments: Any, ctx: ToolContext) -> ToolResult:
        self.contexts.append(ctx)
        return super().run(arguments, ctx)

    def execute(self, arguments: BaseModel, graph: Any, session: Any) -> ToolResult:
        kwargs = dict(arguments)  # every field, defaults filled
        self.calls.append(kwargs)
        if self.results:
            return self.results.pop(0)
        trace = QueryTrace(name=self.name, cypher="MATCH (m:Movie) RETURN m", params=kwargs, rows=1)
        return ToolResult(tool=self.name, kind="rows", data={"echo": kwargs}, queries=[trace])


def recommender() -> ScriptedTool:
    return ScriptedTool(
        name="recommender",
        description="Recommends movies similar to a movie, or from a genre.",
        input_model=RecommenderInput,
    )


def information() -> ScriptedTool:
    return ScriptedTool(
        name="information",
        description="Facts about a movie (year, genres, directors, cast) or a person's films.",
        input_model=InformationInput,
    )


def casino_candidates() -> ToolResult:
    return ToolResult(
        tool="information",
        ok=False,
        kind="candidates",
        message="Several movies match 'Casino'; ask the user which one.",
        candidates=[
            Candidate(label="Casino (1995)", title="Casino", year=1995, movie_id=16),
            Candidate(
                label="Casino Royale (2006)", title="Casino Royale", year=2006, movie_id=49272
            ),
        ],
    )


class BrokenTool(Tool[NoInput]):
    name = "broken"
    description = "Always fails."
    input_model = NoInput

    def execute(self, arguments: NoInput, graph: Any, session: Any) -> ToolResult:
        raise RuntimeError("graph went away")
