"""What one question cost and produced: the answer, the tool steps, the LLM calls, the timings."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field, computed_field

from semantic_layer.tools.result import Candidate, ToolResult

StopReason = Literal["answer", "step_limit", "error"]


class ToolStep(BaseModel):
    """One tool the model asked for: what it sent, what it got back, how long it took."""

    step: int
    tool: str
    input: dict[str, Any] = Field(default_factory=dict)
    output: str  # the Observation text the model read
    result: ToolResult | None = None  # None when the call was refused before dispatch
    ms: float = 0.0


class LLMCall(BaseModel):
    """One model call (after retries): its tokens, time and raw completion."""

    step: int
    prompt_tokens: int = 0
    completion_tokens: int = 0
    estimated_tokens: bool = False
    ms: float = 0.0
    finish_reason: str | None = None
    attempts: int = 1
    completion: str = ""


class Timings(BaseModel):
    total_ms: float = 0.0
    llm_ms: float = 0.0
    tool_ms: float = 0.0

    @computed_field  # type: ignore[prop-decorator]
    @property
    def overhead_ms(self) -> float:
        """The agent's own time: everything but waiting for the model and the tools."""
        return max(0.0, self.total_ms - self.llm_ms - self.tool_ms)


class AgentResult(BaseModel):
    question: str
    answer: str
    stop_reason: StopReason = "answer"
    steps: list[ToolStep] = Field(default_factory=list)
    llm_calls: list[LLMCall] = Field(default_factory=list)
    candidates: list[Candidate] = Field(default_factory=list)  # set when asking "which one?"
    entities: list[str] = Field(default_factory=list)  # what the tools resolved (follow-ups)
    error: str | None = None  # stop_reason "error": the sentence that says what to do
    new_user_id: int | None = None  # a guest got this user id: the caller switches its session
    rendered: list[str] = Field(default_factory=list)  # why the answer came from the rows
    referent: str | None = None  # what a follow-up that names nothing points at, if anything
    timings: Timings = Field(default_factory=Timings)

    @computed_field  # type: ignore[prop-decorator]
    @property
    def prompt_tokens(self) -> int:
        return sum(c.prompt_tokens for c in self.llm_calls)

    @computed_field  # type: ignore[prop-decorator]
    @property
    def completion_tokens(self) -> int:
        return sum(c.completion_tokens for c in self.llm_calls)
