"""Scores one outcome against its question, and aggregates scores overall and per category.

- tool choice: the first tool called (or none) is one of the expected tools (or an `also`);
- arguments: the first call to an expected tool has every key argument expected of that tool,
  compared with `same_value` (case, accents, articles, a year in parentheses and number types
  do not matter); no such call counts as wrong; questions without expected arguments are not
  counted;
- facts: every expected fact occurs in the answer (`contains_fact`); the fact-level rate is
  reported too; questions without facts are not counted;
- parse failures: model replies that could not be read (total, and questions with at least one);
- unrequested writes: calls that wrote in a question that asks for no write, and calls that
  wrote other values than the question states (a rating it does not give);
- answers in another language: the answer's language (`agent.grounded.answer_language`) is
  not the question's;
- LLM calls and tokens: means per question; latency: p50/p95 of the whole question, in ms,
  interpolated linearly between the closest ranks.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any

from pydantic import BaseModel

from evaluation.normalize import contains_fact, same_value
from evaluation.outcome import Outcome, ToolUse
from evaluation.questions import Question


class Score(BaseModel):
    id: str
    category: str
    tool_ok: bool
    args_ok: bool | None  # None: the question expects no arguments
    facts_ok: bool | None  # None: the question expects no facts
    facts_found: int = 0
    facts_total: int = 0
    invented: int = 0  # names or relations in the answer that no returned row holds
    #: calls that wrote what the question does not ask for: a write in a question that asks for
    #: none, or a write of other values than those it states ("one star for Grease" stored as 4)
    unrequested_writes: int = 0
    cut: bool = False  # the answer stops mid-sentence
    other_language: bool = False  # the answer is in another language than the question


class Summary(BaseModel):
    questions: int
    tool_accuracy: float | None
    argument_accuracy: float | None
    argument_questions: int
    facts_rate: float | None
    fact_level_rate: float | None
    fact_questions: int
    parse_failures: int
    questions_with_parse_failure: int
    errors: int  # runs that ended in an error (model unreachable, harness caught an exception)
    llm_calls_per_question: float | None
    prompt_tokens_per_question: float | None
    completion_tokens_per_question: float | None
    latency_p50_ms: float | None
    latency_p95_ms: float | None
    invented: int = 0  # names or relations no returned row holds, over all answers
    questions_with_invented: int = 0
    unrequested_writes: int = 0
    cut_answers: int = 0
    other_language_answers: int = 0


def score(question: Question, outcome: Outcome) -> Score:
    expected = question.expect
    accepted = expected.accepted()
    first = outcome.tools[0].tool if outcome.tools else None
    tool_ok = any(_same_tool(t, first) for t, _ in accepted)
    args_ok: bool | None = None
    if any(args for _, args in accepted):
        calls = (
            (use, args) for use in outcome.tools for t, args in accepted if _same_tool(t, use.tool)
        )
        call = next(calls, None)
        args_ok = call is not None and all(
            _matches(value, call[0].input.get(key)) for key, value in call[1].items()
        )
    found = sum(contains_fact(outcome.answer, fact) for fact in expected.facts)
    total = len(expected.facts)
    asked = {t for t, _ in accepted if t is not None}
    return Score(
        id=question.id,
        category=question.category,
        tool_ok=tool_ok,
        args_ok=args_ok,
        facts_ok=(found == total) if total else None,
        facts_found=found,
        facts_total=total,
        invented=len(outcome.invented),
        unrequested_writes=sum(1 for name in outcome.writes if name not in asked)
        + sum(
            1
            for use in outcome.tools
            if use.wrote and use.tool in asked and not _stated(use, accepted)
        ),
        cut=outcome.cut,
        other_language=outcome.answer_language not in (None, question.language),
    )


def summarize(scores: Sequence[Score], outcomes: Sequence[Outcome]) -> Summary:
    args = [s.args_ok for s in scores if s.args_ok is not None]
    facts = [s.facts_ok for s in scores if s.facts_ok is not None]
    facts_total = sum(s.facts_total for s in scores)
    return Summary(
        questions=len(scores),
        tool_accuracy=_rate([s.tool_ok for s in scores]),
        argument_accuracy=_rate(args),
        argument_questions=len(args),
        facts_rate=_rate(facts),
        fact_level_rate=sum(s.facts_found for s in scores) / facts_total if facts_total else None,
        fact_questions=len(facts),
        parse_failures=sum(o.parse_failures for o in outcomes),
        questions_with_parse_failure=sum(o.parse_failures > 0 for o in outcomes),
        errors=sum(o.ending == "error" for o in outcomes),
        llm_calls_per_question=_mean([o.llm_calls for o in outcomes]),
        prompt_tokens_per_question=_mean([o.prompt_tokens for o in outcomes]),
        completion_tokens_per_question=_mean([o.completion_tokens for o in outcomes]),
        latency_p50_ms=percentile([o.ms for o in outcomes], 50),
        latency_p95_ms=percentile([o.ms for o in outcomes], 95),
        invented=sum(s.invented for s in scores),
        questions_with_invented=sum(s.invented > 0 for s in scores),
        unrequested_writes=sum(s.unrequested_writes for s in scores),
        cut_answers=sum(s.cut for s in scores),
        other_language_answers=sum(s.other_language for s in scores),
    )


def evaluate(questions: Sequence[Question], outcomes: Sequence[Outcome]) -> dict[str, Any]:
    """Scores plus the summary overall and per category (in order of first appearance)."""
    by_id = {q.id: q for q in questions}
    scores = [score(by_id[o.id], o) for o in outcomes]
    categories = list(dict.fromkeys(s.category for s in scores))
    return {
        "overall": summarize(scores, outcomes),
        "categories": {
            c: summarize(
                [s for s in scores if s.category == c], [o for o in outcomes if o.category == c]
            )
            for c in categories
        },
        "scores": scores,
    }


def tool_latencies(outcomes: Iterable[Outcome]) -> dict[str, list[float]]:
    """Every tool call's time, per tool."""
    latencies: dict[str, list[float]] = {}
    for outcome in outcomes:
        for use in outcome.tools:
            latencies.setdefault(use.tool, []).append(use.ms)
    return latencies


def percentile(values: Sequence[float], pct: float) -> float | None:
    """Linear interpolation between closest ranks (numpy's default); None for no values."""
    if not values:
        return None
    ordered = sorted(values)
    rank = (len(ordered) - 1) * pct / 100
    low, high = math.floor(rank), math.ceil(rank)
    return ordered[low] + (ordered[high] - ordered[low]) * (rank - low)


def _stated(use: ToolUse, accepted: list[tuple[str | None, dict[str, Any]]]) -> bool:
    """Whether a call to a tool the question asks for stored what it states: its arguments are
    those expected of that tool (any, where none are). A write by a tool it does not ask for is
    counted from `outcome.writes`."""
    options = [args for tool, args in accepted if _same_tool(tool, use.tool)]
    return any(all(_matches(v, use.input.get(k)) for k, v in args.items()) for args in options)


def _same_tool(expected: str | None, actual: str | None) -> bool:
    if expected is None or actual is None:
        return expected is None and actual is None
    return expected.casefold() == actual.casefold()


def _matches(expected: Any, actual: Any) -> bool:
    """A list of options: any of them. A list-valued argument (the recommender's `movies`,
    `genres`): an option matches when an item does, and `null` when it is absent or empty."""
    options = expected if isinstance(expected, list) else [expected]
    if isinstance(actual, list):
        if not actual:
            return None in options
        return any(same_value(option, item) for option in options for item in actual)
    return any(same_value(option, actual) for option in options)


def _rate(values: Sequence[bool]) -> float | None:
    return sum(values) / len(values) if values else None


def _mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None
