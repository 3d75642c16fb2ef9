"""A tiny hand-made set, scripted replies for it, and scripted tools: no graph, no live model."""

from __future__ import annotations

from pathlib import Path

import pytest

from evaluation.questions import Question, load_questions

TINY_SET = """\
questions:
- {id: q1, category: info, question: "Who directed Heat?",
   expect: {tool: information, args: {entity: Heat}, facts: [Michael Mann]}}
- {id: q2, category: recommend, question: "Movies like The Matrix?",
   expect: {tool: recommender, args: {movie: The Matrix}}}
- {id: q3, category: recommend, question: "A good comedy?",
   expect: {tool: recommender, args: {genre: Comedy}}}
- {id: q4, category: info, question: "Who made Casino and who is in it?",
   expect: {tool: information, args: {entity: Casino}, facts: [Martin Scorsese, Robert De Niro]}}
- {id: q5, category: offtopic, question: "Hi!", expect: {tool: [smalltalk, null]}}
"""


@pytest.fixture
def tiny_set_path(tmp_path: Path) -> Path:
    path = tmp_path / "tiny.yaml"
    path.write_text(TINY_SET, encoding="utf-8")
    return path


@pytest.fixture
def tiny_set(tiny_set_path: Path) -> list[Question]:
    return load_questions(tiny_set_path).questions
