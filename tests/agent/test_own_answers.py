"""The answers the loop writes itself (a step limit, the question that asks which one, a result
that is an answer by itself), in the language of the question."""
# ruff: noqa: RUF001  (full-width punctuation is what Japanese and Chinese questions hold)

from __future__ import annotations

import re
from typing import Any

import pytest

from agent import Agent
from agent.language import detect_language
from agent.render import step_limit, which_one
from semantic_layer.resolve.candidate import Candidate
from semantic_layer.tools import build_tools
from semantic_layer.tools.contract import ToolContext
from semantic_layer.tools.payloads import MovieCard, SmalltalkReply, StoredRating, YourRating
from semantic_layer.tools.result import ToolResult
from tests.agent.fakes import ScriptedLLM, ScriptedTool, call, casino_candidates, final

PEOPLE = [
    Candidate(label="Francis Ford Coppola (directed 14)", name="Francis Ford Coppola"),
    Candidate(label="Sofia Coppola (directed 5)", name="Sofia Coppola"),
]


def test_the_step_limit_sentence_names_the_steps_in_the_language() -> None:
    assert step_limit(4, "en") == (
        "Sorry, I could not work out an answer in 4 steps. Could you ask it more specifically?"
    )
    spanish = step_limit(4, "es")
    assert spanish.startswith("Lo siento") and "4 pasos" in spanish


def test_which_one_says_titles_or_people_and_asks_about_a_single_candidate() -> None:
    titles = which_one(casino_candidates().candidates, "en")
    assert (
        titles
        == "Several titles match: Casino (1995) and Casino Royale (2006). Which one do you mean?"
    )
    assert which_one(PEOPLE, "en").startswith("Several people match: Francis Ford Coppola")
    assert which_one(PEOPLE[:1], "en") == "Did you mean Francis Ford Coppola (directed 14)?"
    japanese = which_one(casino_candidates().candidates, "ja")
    assert "Casino (1995)" in japanese and "どれ" in japanese
    assert "哪一部" in which_one(casino_candidates().candidates, "zh")


def test_the_step_limit_answer_is_in_the_question_language(tools: list[ScriptedTool]) -> None:
    llm = ScriptedLLM(*[call("information", entity=f"Movie {i}") for i in range(5)])
    result = Agent(llm, tools, max_steps=3).ask("¿Qué películas dirigió Pedro Almodóvar?")
    assert result.stop_reason == "step_limit"
    assert result.answer.startswith("Lo siento") and "3 pasos" in result.answer


def test_the_candidates_answer_is_in_the_question_language(tools: list[ScriptedTool]) -> None:
    tools[1].results.append(casino_candidates())
    llm = ScriptedLLM(call("information", entity="Casino"))
    result = Agent(llm, tools).ask("Casino の監督は誰ですか？")
    assert result.stop_reason == "answer"
    assert (
        result.answer
        == "複数の作品が該当します：Casino (1995)、Casino Royale (2006)。どれのことですか？"
    )


@pytest.mark.parametrize(
    ("data", "question", "expected"),
    [
        (
            StoredRating(movie_id=6, title="Heat", year=1995, rating=4.5, user_id=700),
            "Gib Heat 4,5 Sterne.",
            "Gespeichert: 4.5/5 für Heat (1995).",
        ),
        (
            YourRating(movie_id=6, title="Heat", year=1995, rating=None),
            "What did I give Heat?",
            "You have not rated Heat (1995).",
        ),
        (
            SmalltalkReply(examples=["Recommend something like Heat"]),
            "What is the capital of Italy?",
            "I'm a movie assistant: I can recommend movies, tell you who directed or starred in a "
            "film, and remember your ratings.",
        ),
    ],
)
def test_a_result_that_states_the_answer_ends_the_turn_without_the_model(
    data: object, question: str, expected: str
) -> None:
    """A rating stored or read, or what the agent does: the answer is rendered from the result
    in the question's language, and the model is not asked again (it could only restate it, or
    misstate it: "you gave Heat 3 stars")."""
    tool = ScriptedTool("memory", "Store a rating.")
    tool.results.append(ToolResult(tool="memory", kind="rating", data=data))
    llm = ScriptedLLM(call("memory"), final("You gave Heat 3 stars."))
    result = Agent(llm, [tool]).ask(question)
    assert result.answer == expected
    assert len(llm.requests) == 1 and result.stop_reason == "answer"


def test_the_language_is_read_without_the_titles_linking_found(movie_graph: Any) -> None:
    """Read whole, "Rate Gattaca a 4 for me." is Italian to the detector; without the title
    the graph holds, it is English, and so is the sentence the loop renders."""
    tool = ScriptedTool("memory", "Store a rating.")
    stored = StoredRating(movie_id=1653, title="Gattaca", year=1997, rating=4.0, user_id=700)
    tool.results.append(ToolResult(tool="memory", kind="rating", data=stored))
    llm = ScriptedLLM(call("memory", movie="Gattaca", rating=4))
    question = "Rate Gattaca a 4 for me."
    assert detect_language(question) == "it"  # what the title alone makes of it
    result = Agent(llm, [tool]).ask(question, context=ToolContext(movie_graph))
    assert result.answer == "Stored 4/5 for Gattaca (1997)."


def test_a_card_of_facts_is_answered_by_the_model(tools: list[ScriptedTool]) -> None:
    card = MovieCard(movie_id=6, title="Heat", year=1995, directors=["Michael Mann"])
    tools[1].results.append(ToolResult(tool="information", kind="movie", data=card))
    llm = ScriptedLLM(call("information", entity="Heat"), final("Michael Mann directed it."))
    assert Agent(llm, tools).ask("Who directed Heat?").answer == "Michael Mann directed it."
    assert len(llm.requests) == 2


FIVE = (
    "Tom Hanks was in Forrest Gump (1994), Toy Story (1995), Apollo 13 (1995), Saving Private "
    "Ryan (1998) and Catch Me If You Can (2002)."
)


@pytest.mark.parametrize(
    ("question", "calls"),
    [
        ("What has Tom Hanks acted in?", 1),
        ("¿En qué películas sale Tom Hanks?", 1),
        ("Did Tom Hanks act in Big?", 2),  # a movie too: the model answers
        ("Which comedies has Tom Hanks been in?", 2),  # a genre the card cannot sort by
        ("What did Tom Hanks star in during the 90s?", 2),  # years, likewise
    ],
)
def test_the_films_of_the_one_person_asked_about_are_the_answer(
    movie_graph: Any, question: str, calls: int
) -> None:
    """Asked about one person and nothing else, the filmography is rendered (ten films a role,
    with years and the count of all) and the model is not asked again; a question that also
    names a movie, a genre or years is the model's to answer from the card."""
    llm = ScriptedLLM(
        call("film_facts", entity="Tom Hanks", about=["cast"], entity_type="person"),
        final(FIVE),
        context=8192,
    )
    result = Agent(llm, build_tools()).ask(question, context=ToolContext(movie_graph))
    assert len(result.llm_calls) == calls and result.stop_reason == "answer"
    if calls == 2:
        assert result.answer == FIVE
        return
    english = question.startswith("What")
    assert result.answer.startswith("Films with" if english else "Películas en las que actúa")
    assert len(re.findall(r"\(\d{4}\)", result.answer)) == 10
