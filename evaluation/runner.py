"""Runs a question set through a subject, one fresh session user per question.

A subject is anything that answers one question with a given list of tools and a context:
`AgentSubject` (our agent, built once) or `evaluation.baseline.BaselineSubject`. The
tools are built once for the whole set; for every question the harness makes a new `Session`
whose user id is above any MovieLens id and its `ToolContext`, stores the question's `ratings`
through the Memory tool (so "what else would I like?" sees them, and nothing leaks to the next
question), then hands over the question and its history.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Protocol

from agent.build import DEFAULT_MAX_STEPS, build_agent
from agent.events import Correction, FinalAnswer
from agent.llm.base import LLM, ChatMessage
from agent.loop import Agent
from agent.settings import LLMSettings
from evaluation.outcome import Outcome, ToolUse, ran_with
from evaluation.questions import Question, Rating
from evaluation.seen import answer_language, cut, invented, writes, wrote
from semantic_layer.session import Session
from semantic_layer.tools.contract import Tool, ToolContext
from semantic_layer.user_policy import FIRST_EVAL_USER_ID, eval_user_ids

log = logging.getLogger(__name__)

PARSE_PROBLEMS = frozenset({"not_json", "unknown_action", "empty_answer", "cut_off"})
ContextFactory = Callable[[Session], ToolContext]
Progress = Callable[[Question, Outcome], None]


class Subject(Protocol):
    name: str

    def run(
        self, question: Question, tools: Sequence[Tool[Any]], context: ToolContext
    ) -> Outcome: ...


class AgentSubject:
    """Our agent (`agent.loop.Agent`), grammar on when the backend supports it."""

    name = "agent"

    def __init__(
        self, llm: LLM, settings: LLMSettings | None = None, *, max_steps: int = DEFAULT_MAX_STEPS
    ) -> None:
        self.llm = llm
        self.settings = settings
        self.max_steps = max_steps
        self._agent: Agent | None = None
        self._tools: tuple[Tool[Any], ...] = ()

    def run(self, question: Question, tools: Sequence[Tool[Any]], context: ToolContext) -> Outcome:
        agent = self._agent_for(tools)
        history = [ChatMessage(role=t.role, content=t.content) for t in question.history]
        started = time.perf_counter()
        parse_failures = 0
        for event in agent.stream(question.question, history, context):
            if isinstance(event, Correction) and event.reason in PARSE_PROBLEMS:
                parse_failures += 1
            if isinstance(event, FinalAnswer):
                result = event.result
                break
        else:  # pragma: no cover - Agent.stream always ends with a FinalAnswer
            raise AssertionError("the agent ended without a final answer")
        return Outcome(
            id=question.id,
            category=question.category,
            language=question.language,
            subject=self.name,
            answer=result.answer,
            tools=[
                ToolUse(
                    tool=s.tool,
                    input=ran_with(tools, s.tool, s.input),
                    ms=s.ms,
                    ok=bool(s.result and s.result.ok),
                    wrote=wrote(s.result),
                )
                for s in result.steps
            ],
            llm_calls=len(result.llm_calls),
            prompt_tokens=result.prompt_tokens,
            completion_tokens=result.completion_tokens,
            parse_failures=parse_failures,
            ending=result.stop_reason,
            error=result.error,
            ms=(time.perf_counter() - started) * 1000,
            invented=[]  # an error ending shows our sentence on what to start, not a claim
            if result.error
            else invented(
                result.answer, [s.result for s in result.steps], context.graph, question.said()
            ),
            writes=writes([s.result for s in result.steps]),
            cut=cut(
                result.answer,
                result.llm_calls[-1].finish_reason or "" if result.llm_calls else "",
                rendered=bool(result.rendered),
            ),
            answer_language=None
            if result.error
            else answer_language(result.answer, context.graph, question.language),
            replies=[call.completion for call in result.llm_calls],
        )

    def _agent_for(self, tools: Sequence[Tool[Any]]) -> Agent:
        """One agent (prompt and grammars) for as long as the tools are the same."""
        if self._agent is None or tuple(tools) != self._tools:
            self._tools = tuple(tools)
            self._agent = build_agent(self.llm, tools, self.settings, max_steps=self.max_steps)
        return self._agent


def run_set(
    subject: Subject,
    questions: Iterable[Question],
    tools: Sequence[Tool[Any]],
    context_for: ContextFactory,
    *,
    first_user_id: int = FIRST_EVAL_USER_ID,
    progress: Progress | None = None,
) -> list[Outcome]:
    """Every question through `subject`, each with a new user (`context_for` its context)."""
    user_ids = eval_user_ids(first_user_id)
    outcomes: list[Outcome] = []
    for question in questions:
        context = context_for(Session(user_id=next(user_ids), display_name="eval"))
        store_ratings(tools, question.ratings, context)
        try:
            outcome = subject.run(question, tools, context)
        except Exception as e:  # one broken question is a measured error, not a harness crash
            log.warning("question %s failed under %s", question.id, subject.name, exc_info=True)
            outcome = Outcome(
                id=question.id,
                category=question.category,
                language=question.language,
                subject=subject.name,
                ending="error",
                error=f"{type(e).__name__}: {e}",
            )
        outcomes.append(outcome)
        if progress is not None:
            progress(question, outcome)
    return outcomes


def store_ratings(
    tools: Sequence[Tool[Any]], ratings: Sequence[Rating], context: ToolContext
) -> None:
    """Store a question's prior ratings through the tool that takes `movie` and `rating`."""
    if not ratings:
        return
    memory = next(
        (t for t in tools if {"movie", "rating"} <= set(t.input_model.model_fields)), None
    )
    if memory is None:
        raise ValueError("the question has ratings but no tool takes a movie and a rating")
    for rating in ratings:
        memory.run(rating.model_dump(), context)
