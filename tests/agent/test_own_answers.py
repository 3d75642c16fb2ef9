"""The answers the loop writes itself (a step limit, the question that asks which one), in the
language of the question."""
# ruff: noqa: RUF001  (full-width punctuation is what Japanese and Chinese questions hold)

from __future__ import annotations

from agent import Agent
from agent.render import step_limit, which_one
from semantic_layer.resolve.candidate import Candidate
from tests.agent.fakes import ScriptedLLM, ScriptedTool, call, casino_candidates

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
    llm = ScriptedLLM(call("information", entity="Casino"), "")
    result = Agent(llm, tools, max_steps=2).ask("Casino の監督は誰ですか？")
    assert result.stop_reason == "step_limit"
    assert (
        result.answer
        == "複数の作品が該当します：Casino (1995)、Casino Royale (2006)。どれのことですか？"
    )
