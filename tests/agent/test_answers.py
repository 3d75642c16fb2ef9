"""The answers the loop writes itself: template files, in the language of the question."""
# ruff: noqa: RUF001  (full-width punctuation is what Japanese and Chinese questions hold)

from __future__ import annotations

from pathlib import Path

import pytest

from agent import Agent
from agent.answers import _INPUTS, _answers, default_answer
from agent.prompt import PROMPTS_DIR, PromptTemplateError
from tests.agent.fakes import ScriptedLLM, ScriptedTool, call, casino_candidates


def test_every_language_has_every_answer() -> None:
    languages = {p.name for p in (PROMPTS_DIR / "answers").iterdir() if p.is_dir()}
    assert {"en", "fr", "de", "es", "it", "pt", "nl", "ja", "zh", "ko"} <= languages
    assert set(_answers()) == {(lang, name) for lang in languages for name in _INPUTS}


def test_default_answer_follows_the_question() -> None:
    assert default_answer("step_limit", "Who is it?", steps="4") == (
        "Sorry, I could not work out an answer in 4 steps. Could you ask it more specifically?"
    )
    spanish = default_answer("step_limit", "¿Quién dirigió Heat?", steps="4")
    assert spanish.startswith("Lo siento") and "4 pasos" in spanish
    japanese = default_answer("candidates", "カジノについて教えて", options="Casino (1995)")
    assert "Casino (1995)" in japanese and "どれ" in japanese
    chinese = default_answer("candidates", "赌场是谁导演的？", options="Casino (1995)")
    assert "Casino (1995)" in chinese and "哪一部" in chinese


def test_a_missing_or_mismatched_answer_file_is_refused(tmp_path: Path) -> None:
    (tmp_path / "answers" / "fr").mkdir(parents=True)
    (tmp_path / "answers" / "fr" / "step_limit.txt").write_text("Désolé après $etapes étapes.")
    with pytest.raises(PromptTemplateError, match="etapes"):
        _answers(tmp_path)
    (tmp_path / "answers" / "fr" / "step_limit.txt").write_text("Désolé après $steps étapes.")
    with pytest.raises(PromptTemplateError, match=r"candidates\.txt is missing"):
        _answers(tmp_path)


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
    assert result.answer == (
        "複数の作品が該当します：Casino (1995), Casino Royale (2006)。どれのことですか？"
    )
