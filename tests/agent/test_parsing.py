"""Every reply shape open models produce maps to a tool call, an answer or a correction."""

from __future__ import annotations

import pytest

from agent.parsing import Answer, Malformed, ToolCall, parse_step
from tests.agent.fakes import call, final

TOOLS = ["recommender", "information"]


def test_clean_tool_call() -> None:
    parsed = parse_step(call("information", entity="Heat"), TOOLS)
    assert parsed == ToolCall("information", {"entity": "Heat"}, "I need the graph.")


def test_clean_final_answer() -> None:
    assert parse_step(final("Michael Mann."), TOOLS) == Answer("Michael Mann.", "I can answer now.")


@pytest.mark.parametrize(
    "reply",
    [
        '```json\n{"action": "information", "action_input": {"entity": "Heat"}}\n```',
        '```\n{"action": "information", "action_input": {"entity": "Heat"}}\n```',
        'Thought: look it up\nAction:\n```json\n{"action": "information", '
        '"action_input": {"entity": "Heat"}}\n```',
        '{"action": "Information", "action_input": {"entity": "Heat"}}',  # wrong case
        '{"action": "information_tool", "action_input": {"entity": "Heat"}}',
        '{"name": "information", "arguments": {"entity": "Heat"}}',  # function-call style
        '{"action": "information", "action_input": "{\\"entity\\": \\"Heat\\"}"}',  # string JSON
        "Thought: I should look it up.\nAction: information\nAction Input: "
        '{"entity": "Heat"}',  # classic prose ReAct
    ],
)
def test_tool_call_shapes(reply: str) -> None:
    parsed = parse_step(reply, TOOLS)
    assert isinstance(parsed, ToolCall)
    assert parsed.tool == "information"
    assert parsed.args == {"entity": "Heat"}


def test_several_blobs_first_usable_wins() -> None:
    reply = f"{call('information', entity='Heat')}\n{final('Al Pacino.')}"
    assert isinstance(parse_step(reply, TOOLS), ToolCall)
    reply = f'{{"note": "no action"}} {final("Al Pacino.")}'
    assert parse_step(reply, TOOLS) == Answer("Al Pacino.", "I can answer now.")


def test_invented_observation_is_dropped() -> None:
    reply = (
        f"{call('information', entity='Heat')}\nObservation: Heat was directed by Ridley Scott.\n"
        f"{final('Ridley Scott.')}"
    )
    parsed = parse_step(reply, TOOLS)
    assert parsed == ToolCall("information", {"entity": "Heat"}, "I need the graph.")
    prose = (
        'Action: information\nAction Input: {"entity": "Heat"}\n'
        "Observation: made up\nThought: done\nFinal Answer: Ridley Scott"
    )
    assert isinstance(parse_step(prose, TOOLS), ToolCall)


def test_null_action() -> None:
    parsed = parse_step('{"action": null, "action_input": {}}', TOOLS)
    assert parsed == Malformed("unknown_action", {"action": "null"})
    # a null action that carries a text is the model answering
    parsed = parse_step('{"action": null, "action_input": "Hello! Ask me about movies."}', TOOLS)
    assert parsed == Answer("Hello! Ask me about movies.")


def test_unknown_action() -> None:
    parsed = parse_step('{"action": "search_web", "action_input": {"q": "Heat"}}', TOOLS)
    assert parsed == Malformed("unknown_action", {"action": "search_web"})


@pytest.mark.parametrize(
    ("reply", "answer"),
    [
        ("Thought: I know this.\nFinal Answer: Michael Mann.", "Michael Mann."),
        ('{"action": "final_answer", "action_input": "Michael Mann."}', "Michael Mann."),
        (
            '{"action": "Final Answer", "action_input": {"answer": "Michael Mann."}}',
            "Michael Mann.",
        ),
        ("Michael Mann directed Heat (1995).", "Michael Mann directed Heat (1995)."),  # no marker
        ("Thought: easy\nMichael Mann directed it.", "Michael Mann directed it."),
    ],
)
def test_answer_shapes(reply: str, answer: str) -> None:
    parsed = parse_step(reply, TOOLS)
    assert isinstance(parsed, Answer)
    assert parsed.text == answer


def test_empty_and_thought_only_replies_are_corrected() -> None:
    assert parse_step("", TOOLS) == Malformed("empty_answer")
    assert parse_step("   \n", TOOLS) == Malformed("empty_answer")
    assert parse_step(final("  "), TOOLS) == Malformed("empty_answer")
    parsed = parse_step("Thought: I should use a tool.", TOOLS)
    assert isinstance(parsed, Malformed) and parsed.problem == "not_json"


def test_action_in_prose_without_input_is_corrected_with_a_fallback() -> None:
    parsed = parse_step("I will use the recommender.\nAction: find similar movies", TOOLS)
    assert isinstance(parsed, Malformed)
    assert parsed.problem == "not_json"


def test_cut_off_replies() -> None:
    cut = final("Heat is a 1995 crime film directed by")[:-3]
    assert parse_step(cut, TOOLS, truncated=True) == Answer("Heat is a 1995 crime film directed b…")
    cut_call = call("information", entity="Heat")[:-5]
    assert parse_step(cut_call, TOOLS, truncated=True) == Malformed("cut_off")
    assert parse_step(cut_call, TOOLS) == Malformed("not_json")


def test_never_raises_on_garbage() -> None:
    for reply in [
        "{",
        "}",
        "{{{}}}",
        '{"action": 3}',
        "[1, 2]",
        "\x00",
        '{"action": ["a"]}',
        "```",
    ]:
        parse_step(reply, TOOLS)


def test_json_nested_past_the_recursion_limit_is_a_correction_not_an_error() -> None:
    deep = '{"action": "information", "action_input": ' + "[" * 1500 + "]" * 1500 + "}"
    assert parse_step(deep, TOOLS) == Malformed("not_json")
    also = '{"a": ' * 1500 + "1" + "}" * 1500
    assert isinstance(parse_step(also, TOOLS), Malformed)
    # an object before the deep one still counts
    first = call("information", entity="Heat") + "\n" + deep
    assert parse_step(first, TOOLS) == ToolCall(
        "information", {"entity": "Heat"}, "I need the graph."
    )


def test_lone_surrogates_are_replaced_in_replies_and_arguments() -> None:
    escaped = '{"action": "information", "action_input": {"entity": "\\ud800Heat"}}'
    parsed = parse_step(escaped, TOOLS)
    assert parsed == ToolCall("information", {"entity": "\ufffdHeat"})
    raw = parse_step("Final Answer: Heat\ud800 by Michael Mann", TOOLS)
    assert raw == Answer("Heat\ufffd by Michael Mann")
    for step in (parsed, raw):
        str(step).encode("utf-8")  # nothing left that UTF-8 cannot encode
