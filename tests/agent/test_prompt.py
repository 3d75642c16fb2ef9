"""The prompt: template files with declared inputs, Mixtral-shaped turns, history, tools."""

from __future__ import annotations

from pathlib import Path

import pytest

from agent.llm.base import ChatMessage
from agent.llm.chat_template import render_mixtral
from agent.prompt import (
    PromptTemplate,
    PromptTemplateError,
    ReactPrompt,
    ScratchpadStep,
    describe_tool,
)
from tests.agent.fakes import ScriptedTool


def roles(messages: list[ChatMessage]) -> str:
    return "".join(m.role[0] for m in messages)


def test_first_turn_holds_instructions_tools_and_question(tools: list[ScriptedTool]) -> None:
    messages = ReactPrompt(tools).messages("Wer führte bei Heat Regie?")
    assert roles(messages) == "u"
    text = messages[0].content
    assert "- recommender: Recommends movies" in text
    assert 'genre (one of "Comedy", "Drama", "Crime", optional)' in text  # enums inlined
    assert 'entity_type (one of "movie", "person", default "movie")' in text
    assert "entity (string): A movie title or a person's name." in text
    assert "in the language of the question" in text
    assert text.endswith("Question: Wer führte bei Heat Regie?")


def test_history_is_context_and_the_scratchpad_alternates(tools: list[ScriptedTool]) -> None:
    """Earlier turns are shown as context in the question's turn, not as assistant replies: a
    small model copies direct Final Answers from its own past turns instead of calling a tool."""
    history = [
        ChatMessage(role="assistant", content="Hi! Ask me about movies."),  # leading: dropped
        ChatMessage(role="user", content="Tell me about Heat"),
        ChatMessage(role="assistant", content="Heat is a 1995 crime film."),
        ChatMessage(role="user", content="unanswered"),  # no answer: dropped
    ]
    pad = [ScratchpadStep(reply='{"action": "information"}', observation='{"ok": true}')]
    messages = ReactPrompt(tools).messages("and who directed it?", history, pad)
    assert roles(messages) == "uau"
    assert messages[0].content.endswith(
        "Earlier in this conversation:\nUser: Tell me about Heat\n"
        "You: Heat is a 1995 crime film.\n\nQuestion: and who directed it?"
    )
    assert "unanswered" not in messages[0].content and "Hi! Ask" not in messages[0].content
    assert messages[2].content.startswith('Observation: {"ok": true}')
    prompt = render_mixtral(messages)
    assert prompt.startswith("[INST] You are MovieAgent") and prompt.endswith("[/INST]")
    assert prompt.count("[INST]") == 2 and prompt.count("</s>") == 1


def test_last_step_asks_for_the_final_answer(tools: list[ScriptedTool]) -> None:
    pad = [ScratchpadStep(reply="{}", observation="{}")]
    messages = ReactPrompt(tools).messages("q", scratchpad=pad, final_only=True)
    assert "last tool call allowed" in messages[-1].content


def test_history_is_bounded(tools: list[ScriptedTool]) -> None:
    history = [
        ChatMessage(role=r, content=f"{r} {i}") for i in range(50) for r in ("user", "assistant")
    ]
    messages = ReactPrompt(tools).messages("q", history)
    assert len(messages) == 1
    assert messages[0].content.count("\nUser: ") == 6  # six question/answer pairs
    assert "User: user 44\n" in messages[0].content and "You: assistant 49" in messages[0].content


def test_templates_must_declare_their_inputs(tmp_path: Path) -> None:
    (tmp_path / "t.txt").write_text("Hello $name and $other")
    with pytest.raises(PromptTemplateError, match="other"):
        PromptTemplate.load("t", {"name"}, tmp_path)
    template = PromptTemplate.load("t", {"name", "other"}, tmp_path)
    assert template.format(name="a", other="b") == "Hello a and b"


def test_mixtral_template_refuses_broken_turns() -> None:
    with pytest.raises(ValueError):
        render_mixtral([ChatMessage(role="assistant", content="x")])
    with pytest.raises(ValueError):
        render_mixtral(
            [ChatMessage(role="user", content="a"), ChatMessage(role="user", content="b")]
        )


def test_an_optional_enum_argument_keeps_its_own_description() -> None:
    """`genres: list[Genre]` with its Field description: the prompt shows that description
    (when to pass a genre), not the Genre enum's docstring that JSON Schema puts beside it."""
    from semantic_layer.tools.recommender import Recommender

    lines = describe_tool(Recommender()).splitlines()
    line = next(line for line in lines if line.lstrip().startswith("genres ("))
    assert "Kinds of movie asked for" in line
    assert "Unknown names fail validation" not in line


def test_an_observation_is_the_result_alone(tools: list[ScriptedTool]) -> None:
    """After a correction the model is to call the right tool, after a real result to answer;
    neither Observation says more than the result: the rules and the worked examples say what
    follows an Observation, and every token after the tool call is prefill before the answer."""
    pad = [
        ScratchpadStep(reply="{}", observation="The user did not mention X.", retry=True),
        ScratchpadStep(reply="{}", observation='{"ok": true}'),
    ]
    messages = ReactPrompt(tools).messages("q", scratchpad=pad)
    assert messages[2].content == "Observation: The user did not mention X."
    assert messages[4].content == 'Observation: {"ok": true}'
