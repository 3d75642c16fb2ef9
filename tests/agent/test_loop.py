"""The loop against a scripted model: call counts, corrections, limits, retries, events."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator

from agent import (
    Agent,
    AnswerToken,
    Correction,
    ErrorEvent,
    FinalAnswer,
    LLMCallEvent,
    LLMRetry,
    StepStarted,
    ToolCallEvent,
    ToolStarted,
)
from agent.errors import LLMUnavailableError
from agent.llm.base import LLMChunk, LLMRequest, LLMTransientError
from tests.agent.fakes import (
    BrokenTool,
    FlakyLLM,
    ScriptedLLM,
    ScriptedTool,
    call,
    casino_candidates,
    final,
)


def agent_for(llm: ScriptedLLM, tools: list[ScriptedTool], **options: object) -> Agent:
    return Agent(llm, tools, backoff_s=0.0, **options)  # type: ignore[arg-type]


def test_one_tool_question_costs_two_calls(tools: list[ScriptedTool]) -> None:
    llm = ScriptedLLM(call("information", entity="Heat"), final("Michael Mann directed Heat."))
    events = list(agent_for(llm, tools).stream("Who directed Heat?"))
    kinds = [e.type for e in events]
    assert kinds[:5] == ["step_started", "llm_call", "tool_started", "tool_call", "step_started"]
    assert kinds[-2:] == ["llm_call", "final_answer"]
    result = events[-1].result  # type: ignore[union-attr]
    assert result.answer == "Michael Mann directed Heat."
    assert len(llm.requests) == len(result.llm_calls) == 2
    assert tools[1].calls == [{"entity": "Heat", "entity_type": "movie"}]  # defaults filled
    step = result.steps[0]
    assert step.tool == "information" and step.input == {"entity": "Heat"}
    assert step.result.queries[0].cypher.startswith("MATCH")
    assert result.prompt_tokens == 200 and result.completion_tokens > 0
    assert result.timings.total_ms >= result.timings.llm_ms + result.timings.tool_ms
    assert json.loads(result.model_dump_json())["timings"]["overhead_ms"] >= 0


def test_no_step_opens_with_a_thought_and_one_written_anyway_is_read(
    tools: list[ScriptedTool],
) -> None:
    """A reply opens with its action (a thought before it chose the same tools, half a second
    later); a model served without the grammar that writes one still gets its call run."""
    llm = ScriptedLLM(call("information", entity="Heat"), final("Michael Mann directed Heat."))
    result = agent_for(llm, tools).ask("Who directed Heat?")  # `call` writes a thought
    first, second = (r.json_schema for r in llm.requests)
    assert first is not None and second is not None
    assert "thought" not in json.dumps(first) + json.dumps(second)
    assert [s.tool for s in result.steps] == ["information"]
    assert result.answer == "Michael Mann directed Heat."


def test_answer_streams_token_by_token_before_the_call_ends(tools: list[ScriptedTool]) -> None:
    llm = ScriptedLLM(final("Heat is a 1995 crime film by Michael Mann."), chunk=3)
    events = list(agent_for(llm, tools).stream("Tell me about Heat"))
    tokens = [e for e in events if isinstance(e, AnswerToken)]
    assert len(tokens) > 5
    assert "".join(t.text for t in tokens) == "Heat is a 1995 crime film by Michael Mann."
    first_token = events.index(tokens[0])
    llm_call = next(i for i, e in enumerate(events) if isinstance(e, LLMCallEvent))
    assert first_token < llm_call  # streamed while the model was still writing


def test_grammar_and_stop_sequence_are_sent(tools: list[ScriptedTool]) -> None:
    llm = ScriptedLLM(final("Hi."))
    agent_for(llm, tools).ask("hello")
    request = llm.requests[0]
    assert request.json_schema is not None and "anyOf" in request.json_schema
    assert request.stop == ["Observation:"]
    assert agent_for(ScriptedLLM(), tools, grammar=False).grammar is False


def test_malformed_replies_are_corrected_and_never_raise(tools: list[ScriptedTool]) -> None:
    llm = ScriptedLLM(
        '{"action": null, "action_input": {}}',
        '{"action": "imdb_search", "action_input": {"q": "Heat"}}',
        '{"thought": "x", "action": "information", "action_in',
        call("information", entity="Heat"),
        final("Michael Mann."),
    )
    result = agent_for(llm, tools, max_steps=6).ask("Who directed Heat?")
    assert result.answer == "Michael Mann."
    assert result.stop_reason == "answer"
    assert len(result.llm_calls) == 5 and len(result.steps) == 1
    prompt = llm.requests[3].messages
    assert 'There is no action called "null"' in prompt[2].content
    assert "imdb_search" in prompt[4].content
    assert "could not read your reply" in prompt[6].content


def test_invalid_arguments_go_back_to_the_model(tools: list[ScriptedTool]) -> None:
    llm = ScriptedLLM(
        call("recommender", genre="Horror"),
        call("recommender", genre="Comedy"),
        final("Try Groundhog Day."),
    )
    events = list(agent_for(llm, tools).stream("a funny movie?"))
    corrections = [e for e in events if isinstance(e, Correction)]
    assert [c.reason for c in corrections] == ["invalid_arguments"]
    assert "genre" in corrections[0].observation and "Comedy" in corrections[0].observation
    assert [c["genre"] for c in tools[0].calls] == ["Comedy"]  # the invalid call never ran


def test_the_same_invalid_call_twice_leaves_only_an_answer(tools: list[ScriptedTool]) -> None:
    """A model that repeats a refused call word for word would repeat it a third time (it
    copied the refusal into its thought, three times over): the next step may only answer."""
    wrong = call("recommender", genre="Horror")
    llm = ScriptedLLM(wrong, wrong, final("Try Groundhog Day."))
    result = agent_for(llm, tools).ask("a funny movie?")
    assert [r.tool_choice for r in llm.requests] == ["auto", "auto", "none"]
    assert len(result.llm_calls) == 3 and not tools[0].calls
    other = ScriptedLLM(wrong, call("recommender", genre="Drama"), call("recommender"), final("ok"))
    agent_for(other, tools).ask("a funny movie?")
    assert [r.tool_choice for r in other.requests][:3] == ["auto", "auto", "auto"]


def test_a_bare_string_fills_a_single_required_argument(tools: list[ScriptedTool]) -> None:
    reply = json.dumps({"action": "information", "action_input": "Heat"})
    agent_for(ScriptedLLM(reply, final("ok")), tools).ask("Heat?")
    assert tools[1].calls == [{"entity": "Heat", "entity_type": "movie"}]  # defaults filled


def test_repeated_call_is_not_run_twice(tools: list[ScriptedTool]) -> None:
    same = call("information", entity="Heat")
    llm = ScriptedLLM(same, same, final("Michael Mann."))
    result = agent_for(llm, tools).ask("Who directed Heat?")
    assert len(tools[1].calls) == 1
    assert result.answer == "Michael Mann."


def test_step_limit_forces_a_final_answer_then_defaults(tools: list[ScriptedTool]) -> None:
    llm = ScriptedLLM(*[call("information", entity=f"Movie {i}") for i in range(10)])
    events = list(agent_for(llm, tools, max_steps=3).stream("loop forever over every movie"))
    starts = [e for e in events if isinstance(e, StepStarted)]
    assert [s.final_only for s in starts] == [False, False, True]
    assert llm.requests[2].json_schema["properties"]["action"] == {"const": "Final Answer"}
    final_event = events[-1]
    assert isinstance(final_event, FinalAnswer)
    assert final_event.stop_reason == "step_limit"
    assert final_event.answer == (
        "Sorry, I could not work out an answer in 3 steps. Could you ask it more specifically?"
    )
    assert len(tools[1].calls) == 2


def test_candidates_are_surfaced(tools: list[ScriptedTool]) -> None:
    tools[1].results.append(casino_candidates())
    llm = ScriptedLLM(call("information", entity="Casino"))
    events = list(agent_for(llm, tools).stream("Tell me about Casino"))
    final_event = events[-1]
    assert isinstance(final_event, FinalAnswer)
    assert [c.label for c in final_event.candidates] == ["Casino (1995)", "Casino Royale (2006)"]
    assert final_event.result.candidates == final_event.candidates
    assert final_event.stop_reason == "answer" and "Which one" in final_event.answer
    assert "".join(e.text for e in events if isinstance(e, AnswerToken)) == final_event.answer


def test_a_failing_tool_is_an_observation() -> None:
    llm = ScriptedLLM(call("broken"), final("Sorry, the graph is unavailable."))
    events = list(agent_for(llm, [BrokenTool()]).stream("anything"))  # type: ignore[list-item]
    tool_event = next(e for e in events if isinstance(e, ToolCallEvent))
    assert tool_event.result is not None and tool_event.result.kind == "error"
    assert "graph went away" in tool_event.output
    assert events[-1].answer == "Sorry, the graph is unavailable."  # type: ignore[union-attr]


def test_transient_errors_are_retried_with_backoff(tools: list[ScriptedTool]) -> None:
    waits: list[float] = []
    llm = FlakyLLM(2, final("Fine."))
    agent = Agent(llm, tools, backoff_s=0.5, sleep=waits.append)
    events = list(agent.stream("hi"))
    assert [e.wait_s for e in events if isinstance(e, LLMRetry)] == [0.5, 1.0]
    assert waits == [0.5, 1.0]
    assert events[-1].result.llm_calls[0].attempts == 3  # type: ignore[union-attr]
    assert events[-1].answer == "Fine."  # type: ignore[union-attr]


def test_retries_run_out_into_an_error_event(tools: list[ScriptedTool]) -> None:
    llm = FlakyLLM(5, final("never"))
    events = list(Agent(llm, tools, max_retries=2, sleep=lambda s: None).stream("hi"))
    assert isinstance(events[-2], ErrorEvent) and "kept failing" in events[-2].message
    assert events[-1].stop_reason == "error"  # type: ignore[union-attr]
    assert len(llm.requests) == 3


def test_unreachable_model_ends_with_what_to_start(tools: list[ScriptedTool]) -> None:
    llm = ScriptedLLM(LLMUnavailableError("Nothing answers at http://x: start TGI there."))
    result = agent_for(llm, tools).ask("hi")
    assert result.stop_reason == "error"
    assert result.error == result.answer == "Nothing answers at http://x: start TGI there."


def test_slow_model_times_out_and_is_retried(tools: list[ScriptedTool]) -> None:
    class SlowFirstLLM(ScriptedLLM):
        def stream(self, request: LLMRequest) -> Iterator[LLMChunk]:
            slow = not self.requests
            for chunk in super().stream(request):
                if slow:
                    time.sleep(0.05)
                yield chunk

    llm = SlowFirstLLM(final("a slow answer"), final("ok"), chunk=2)
    events = list(agent_for(llm, tools, call_timeout_s=0.1).stream("hi"))
    retries = [e for e in events if isinstance(e, LLMRetry)]
    assert len(retries) == 1 and "within 0.1 s" in retries[0].error
    assert events[-1].answer == "ok"  # type: ignore[union-attr]


def test_history_reaches_the_prompt(tools: list[ScriptedTool]) -> None:
    llm = ScriptedLLM(final("Michael Mann."))
    history = [
        {"role": "user", "content": "Tell me about Heat"},
        {"role": "assistant", "content": "Heat (1995) is a crime film."},
    ]
    agent_for(llm, tools).ask("and who directed it?", history)
    messages = llm.requests[0].messages
    assert [m.role for m in messages] == ["user"]  # earlier turns are context in the question
    assert "You: Heat (1995) is a crime film." in messages[0].content


def test_prose_answer_without_grammar_is_streamed_word_by_word(tools: list[ScriptedTool]) -> None:
    llm = ScriptedLLM("Heat was directed by Michael Mann.")
    events = list(agent_for(llm, tools, grammar=False).stream("Who directed Heat?"))
    assert llm.requests[0].json_schema is None
    tokens = [e.text for e in events if isinstance(e, AnswerToken)]
    assert "".join(tokens) == "Heat was directed by Michael Mann." and len(tokens) == 6


def test_event_order_for_a_tool_step(tools: list[ScriptedTool]) -> None:
    llm = ScriptedLLM(call("recommender", movie="Heat"), final("Try Ronin."))
    events = list(agent_for(llm, tools).stream("like Heat"))
    started = next(e for e in events if isinstance(e, ToolStarted))
    finished = next(e for e in events if isinstance(e, ToolCallEvent))
    assert events.index(started) + 1 == events.index(finished)
    assert started.input == finished.input == {"movie": "Heat"}


def test_transient_error_type_is_an_agent_error() -> None:
    assert issubclass(LLMTransientError, Exception)


def test_time_waiting_behind_another_session_is_not_the_calls_timeout(
    tools: list[ScriptedTool],
) -> None:
    class Queued(ScriptedLLM):  # waits for another generation, then answers quickly
        def stream(self, request: LLMRequest) -> Iterator[LLMChunk]:
            time.sleep(0.3)
            yield LLMChunk(waited_s=0.3)
            yield from super().stream(request)

    llm = Queued(final("ok"))
    events = list(agent_for(llm, tools, call_timeout_s=0.2).stream("hi"))
    assert not [e for e in events if isinstance(e, LLMRetry)]
    assert events[-1].answer == "ok"  # type: ignore[union-attr]
    assert len(llm.requests) == 1
