"""Whatever a backend raises, the run ends in an answer sentence, never an exception."""

from __future__ import annotations

from agent import Agent, ErrorEvent, FinalAnswer
from agent.llm.base import LLMContextOverflowError
from tests.agent.fakes import ScriptedLLM, ScriptedTool, final

OVERFLOW = "Requested tokens (4666) exceed context window of 4096"


def test_a_context_overflow_is_an_answer_and_not_retried(tools: list[ScriptedTool]) -> None:
    sentence = "This question needs 4666 tokens, more than the model's context window of 4096."
    llm = ScriptedLLM(LLMContextOverflowError(sentence), final("never reached"))
    events = list(Agent(llm, tools, sleep=lambda s: None).stream("Something like Heat"))
    final_event = events[-1]
    assert isinstance(final_event, FinalAnswer)
    assert final_event.stop_reason == "error" and final_event.answer == sentence
    assert [e.error for e in events if isinstance(e, ErrorEvent)] == ["LLMContextOverflowError"]
    assert len(llm.requests) == 1


def test_an_unexpected_backend_exception_is_an_answer(tools: list[ScriptedTool]) -> None:
    llm = ScriptedLLM(*[ValueError(OVERFLOW)] * 3)  # what llama-cpp-python itself raises
    result = Agent(llm, tools, max_retries=2, sleep=lambda s: None).ask("Something like Heat")
    assert result.stop_reason == "error"
    assert "kept failing (ValueError: Requested tokens (4666)" in result.answer
    assert len(llm.requests) == 3  # retried like any transient failure, then a sentence
