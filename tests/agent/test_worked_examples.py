"""The worked examples in the instructions show the model what it will meet: each example's
"Found in the graph" line is what linking finds in its question on the real graph, and each
tool call in it is one the tool accepts. An example that drifts from the linker teaches the
model a format it never sees."""

from __future__ import annotations

import json
from typing import Any

from agent.loop import read_question
from agent.prompt import PROMPTS_DIR, describe_linked
from semantic_layer.tools import build_tools

FOUND = "Found in the graph: "


def _examples() -> list[tuple[str, str, list[dict[str, Any]]]]:
    """(question, what the example says was found, its tool calls) per worked example."""
    text = (PROMPTS_DIR / "instructions.txt").read_text(encoding="utf-8")
    lines = text.split("Examples:", 1)[1].strip().splitlines()
    examples: list[tuple[str, str, list[dict[str, Any]]]] = []
    for line in lines:
        if line.startswith("Question: "):
            examples.append((line.removeprefix("Question: "), "", []))
        elif line.startswith(FOUND):
            question, _, calls = examples[-1]
            examples[-1] = (question, line.removeprefix(FOUND).removesuffix("."), calls)
        elif line.startswith("{"):
            step = json.loads(line)
            if step["action"] != "Final Answer":
                examples[-1][2].append(step)
    return examples


def test_every_example_shows_what_linking_finds_and_calls_a_tool_as_it_accepts(
    movie_graph: Any,
) -> None:
    tools = {tool.name: tool for tool in build_tools()}
    examples = _examples()
    assert len(examples) >= 10 and all(calls for _, _, calls in examples)
    for question, found, calls in examples:
        linked, _ = read_question(movie_graph, question)  # as the agent reads it
        assert describe_linked(linked) == found, question
        for call in calls:
            tool = tools[call["action"]]
            tool.input_model.model_validate(call["action_input"])
