"""What `Agent.stream` yields: one typed event per thing that happens, for the UI and the logs.

Every run ends with exactly one `FinalAnswer`, whose `result` holds the whole `AgentResult`.
Before it, in order of appearance: `StepStarted` (one per model call), `LLMRetry`, `LLMCallEvent`,
`Referred` (what a follow-up that names nothing points at, chosen by the model), `Correction` (a malformed reply or invalid arguments sent back to the model), `ToolStarted`,
`ToolCallEvent` (tool, input, `ToolResult` with its Cypher and rows, time), `AnswerToken` (the
final answer, piece by piece) and `ErrorEvent` (the model could not be reached; the run then ends
with that sentence as its answer).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field

from agent.result import AgentResult, LLMCall, StopReason, ToolStep
from semantic_layer.tools.result import Candidate


class StepStarted(BaseModel):
    type: Literal["step_started"] = "step_started"
    step: int
    max_steps: int
    final_only: bool = False  # the last step: the grammar admits only a Final Answer


class LLMRetry(BaseModel):
    type: Literal["llm_retry"] = "llm_retry"
    step: int
    attempt: int
    error: str
    wait_s: float


class LLMCallEvent(LLMCall):
    type: Literal["llm_call"] = "llm_call"


class Referred(BaseModel):
    """What the model chose that a follow-up naming nothing itself points at (None: none of
    the movies and people the last turns named)."""

    type: Literal["referred"] = "referred"
    step: int
    points_at: str | None = None


class Correction(BaseModel):
    """The model's reply could not be used; `observation` is what the model is told instead."""

    type: Literal["correction"] = "correction"
    step: int
    reason: str
    observation: str


class ToolStarted(BaseModel):
    type: Literal["tool_started"] = "tool_started"
    step: int
    tool: str
    input: dict[str, Any] = Field(default_factory=dict)


class ToolCallEvent(ToolStep):
    type: Literal["tool_call"] = "tool_call"


class AnswerToken(BaseModel):
    type: Literal["answer_token"] = "answer_token"
    text: str


class AnswerReplaced(BaseModel):
    """The streamed draft named something no row holds, or stopped mid-sentence: `text`, an
    answer rendered from the rows, replaces it."""

    type: Literal["answer_replaced"] = "answer_replaced"
    text: str


class ErrorEvent(BaseModel):
    type: Literal["error"] = "error"
    error: str  # exception class name, e.g. "LLMUnavailableError"
    message: str


class FinalAnswer(BaseModel):
    type: Literal["final_answer"] = "final_answer"
    answer: str
    stop_reason: StopReason
    candidates: list[Candidate] = Field(default_factory=list)
    result: AgentResult


AgentEvent = Annotated[
    StepStarted
    | LLMRetry
    | LLMCallEvent
    | Referred
    | Correction
    | ToolStarted
    | ToolCallEvent
    | AnswerToken
    | AnswerReplaced
    | ErrorEvent
    | FinalAnswer,
    Field(discriminator="type"),
]
