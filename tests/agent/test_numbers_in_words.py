"""A rating written in words ("une étoile", "zwei Sterne") reaches the model as the number it
is, beside what the graph found. A number word may be something else ("one of my favourites",
"un film"), so it is shown, not imposed: the rating stays the model's to write, read from the
question; digits are the rating as written."""

from __future__ import annotations

from typing import Any

import pytest

from agent.cli import Conversation
from agent.grammar import tool_input_schema
from agent.loop import Agent, read_question
from semantic_layer.session import Session
from semantic_layer.tools import build_tools
from tests.agent.fakes import ScriptedLLM, ScriptedTool, final


def _found(question: str, tools: list[ScriptedTool], graph: Any) -> str:
    """What the prompt says the graph found in `question`."""
    llm = ScriptedLLM(final("Ok."))
    conversation = Conversation(Agent(llm, tools), Session())
    conversation.graph = graph
    conversation.ask(question, stream_answer=False)
    content = llm.requests[0].messages[-1].content
    return content.rsplit("Found in the graph: ", 1)[1] if "Found in the graph" in content else ""


@pytest.mark.parametrize(
    ("question", "shown"),
    [
        ("Je mets une étoile à Grease", 'number 1 ("une").'),
        ("Zwei Sterne für Heat, leider.", 'number 2 ("Zwei").'),
        ("Tres estrellas para Casino", 'number 3 ("Tres").'),
    ],
)
def test_a_number_in_words_is_shown_with_its_words(
    question: str, shown: str, tools: list[ScriptedTool], movie_graph: Any
) -> None:
    assert _found(question, tools, movie_graph).endswith(shown)


def test_the_words_of_a_title_are_no_number(tools: list[ScriptedTool], movie_graph: Any) -> None:
    found = _found("Seven Samurai is a masterpiece, remember that", tools, movie_graph)
    assert found.startswith("movie Seven Samurai") and "number" not in found


def test_a_number_in_words_leaves_the_rating_to_the_model(movie_graph: Any) -> None:
    """Digits are stated and admit only themselves; words are read by the model, which sees
    them: "Heat is one of my favourites" gives no rating of 1."""
    memory = next(t for t in build_tools() if t.name == "memory")
    for question in ("Je mets une étoile à Grease", "Heat is one of my favourites, note it"):
        linked, _ = read_question(movie_graph, question)
        assert linked.spelled and not linked.numbers
        rating = tool_input_schema(memory, linked)["properties"]["rating"]
        assert "enum" not in rating and rating["maximum"] == 5


def test_a_statement_with_a_number_in_words_may_rate_what_it_points_at(movie_graph: Any) -> None:
    """As digits do ("Give it 4 stars"), a number in words lets a statement that names no movie
    rate one: the film just discussed, or a title the graph holds in English only. A question
    with one rates nothing."""
    from agent.grammar import NoValueError

    memory = next(t for t in build_tools() if t.name == "memory")

    def rating(question: str) -> Any:
        linked, _ = read_question(movie_graph, question)
        return tool_input_schema(memory, linked)["properties"]["rating"]

    for statement in ("Such a great film. Give it four stars", "Gib ihm zwei Sterne, bitte"):
        assert rating(statement)["maximum"] == 5
    for asked in ("¿Le di tres estrellas a Heat?", "Recommend something for me personally."):
        with pytest.raises(NoValueError):
            rating(asked)
