"""The answers the loop writes itself, in the language of the question: when a limit is hit,
and the question that asks which one while candidates are pending (one movie or person, several
titles, several people).

The texts are template files, `agent/prompts/answers/<language>/<name>.txt`; every language has
every answer with the same inputs (checked when loaded). A language without files gets English.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Literal

from agent.language import detect_language
from agent.prompt import PROMPTS_DIR, PromptTemplate

AnswerName = Literal["step_limit", "candidates", "candidates_people", "candidate_one"]
_INPUTS: dict[AnswerName, frozenset[str]] = {
    "step_limit": frozenset({"steps"}),
    "candidates": frozenset({"options"}),  # several movies
    "candidates_people": frozenset({"options"}),
    "candidate_one": frozenset({"option"}),
}
DEFAULT_LANGUAGE = "en"


@cache
def _answers(directory: Path = PROMPTS_DIR) -> dict[tuple[str, AnswerName], PromptTemplate]:
    languages = sorted(p.name for p in (directory / "answers").iterdir() if p.is_dir())
    return {
        (language, name): PromptTemplate.load(f"answers/{language}/{name}", inputs, directory)
        for language in languages
        for name, inputs in _INPUTS.items()
    }


def default_answer(name: AnswerName, question: str, **values: str) -> str:
    """The `name` answer in the question's language (English when there is no such file)."""
    answers = _answers()
    language = detect_language(question)
    template = answers.get((language, name)) or answers[(DEFAULT_LANGUAGE, name)]
    return template.format(**values)
