"""The Final Answer is decoded from the JSON blob while it streams, escapes included."""

from __future__ import annotations

import pytest

from agent.streaming import FinalAnswerStream, ObjectEnd, partial_final_answer
from tests.agent.fakes import call, final


@pytest.mark.parametrize("size", [1, 2, 3, 7, 1000])
def test_answer_streams_in_any_chunking(size: int) -> None:
    answer = 'Heat (1995) — "a crime epic"\nby Michael Mann \\ café 🎬'
    reply = final(answer)
    stream = FinalAnswerStream()
    out = "".join(stream.feed(reply[i : i + size]) for i in range(0, len(reply), size))
    assert out == answer
    assert stream.closed


def test_escaped_unicode_and_surrogate_pairs() -> None:
    reply = (
        '{"thought": "ok", "action": "Final Answer", "action_input": "caf\\u00e9 \\ud83c\\udfac"}'
    )
    stream = FinalAnswerStream()
    assert "".join(stream.feed(c) for c in reply) == "café 🎬"


def test_tool_calls_do_not_stream() -> None:
    stream = FinalAnswerStream()
    assert stream.feed(call("information", entity="Final Answer")) == ""
    assert not stream.active


def test_whitespace_and_fences_around_the_blob() -> None:
    reply = (
        '```json\n{ "thought" : "x" , "action" : "Final Answer" , "action_input" : "Yes." }\n```'
    )
    assert partial_final_answer(reply) == "Yes."
    assert partial_final_answer('{"action": "Final Answer", "action_input": "No thought"}') == (
        "No thought"
    )


@pytest.mark.parametrize("size", [1, 3, 1000])
def test_object_end_is_found_in_any_chunking(size: int) -> None:
    reply = '  {"action": "information", "action_input": {"entity": "a \\"}\\" {b"}}\n\n'
    end = ObjectEnd()
    closed_at = next(i + size for i in range(0, len(reply), size) if end.feed(reply[i : i + size]))
    assert end.done and closed_at >= reply.rindex("}") + 1  # braces inside strings ignored
    assert closed_at - size < reply.rindex("}") + 1


@pytest.mark.parametrize(
    "reply", ["Thought: I need a tool", '```json\n{"action": "x"}```', '{"action": "Final Answer"']
)
def test_object_end_waits_for_a_complete_object(reply: str) -> None:
    end = ObjectEnd()
    assert not end.feed(reply) and not end.done
