"""The question-set loader accepts YAML and JSONL and names the file, line and entry of every problem."""

from __future__ import annotations

import json
import tomllib
from fnmatch import fnmatch
from pathlib import Path

import pytest

import evaluation
from evaluation.questions import DEFAULT_SET, QuestionSetError, load_questions

GOOD = """\
questions:
- id: one
  category: info
  question: Who directed Heat?
  expect: {tool: information, args: {entity: Heat}, facts: [Michael Mann]}
- id: two
  category: offtopic
  language: es
  question: Hola
  expect: {tool: [smalltalk, null]}
"""


def test_yaml_set_loads(tmp_path: Path) -> None:
    path = tmp_path / "set.yaml"
    path.write_text(GOOD, encoding="utf-8")
    questions = load_questions(path).questions
    assert [q.id for q in questions] == ["one", "two"]
    assert questions[0].expect.tool == ["information"]
    assert questions[1].expect.tool == ["smalltalk", None]
    assert (questions[0].line, questions[1].line) == (2, 6)


def test_yaml_problems_name_file_line_and_entry(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(
        GOOD
        + "- id: three\n  category: x\n  expect: {tool: information}\n"  # no question
        + "- id: one\n  category: x\n  question: again\n  expect: {tool: memory, args: {}}\n"
        + "- id: five\n  category: x\n  question: q\n  expect: {tool: memory}\n  colour: red\n"
        + "- just a string\n",
        encoding="utf-8",
    )
    with pytest.raises(QuestionSetError) as caught:
        load_questions(path)
    message = str(caught.value)
    assert f"{path}:11: entry 3 (three): question: Field required" in message
    assert f"{path}:14: entry 4 (one): id repeats the entry on line 2" in message
    assert f"{path}:18: entry 5 (five): colour: Extra inputs are not permitted" in message
    assert f"{path}:23: entry 6: expected a mapping, got str" in message


def test_yaml_syntax_error_has_a_line(tmp_path: Path) -> None:
    path = tmp_path / "broken.yaml"
    path.write_text("questions:\n- id: [unclosed\n", encoding="utf-8")
    with pytest.raises(QuestionSetError, match=rf"{path.name}:\d+: not valid YAML"):
        load_questions(path)


def test_jsonl_set_and_its_problems(tmp_path: Path) -> None:
    good = {"id": "a", "category": "c", "question": "q?", "expect": {"tool": "information"}}
    bad_rating = {**good, "id": "b", "ratings": [{"movie": "Heat", "rating": 9}]}
    path = tmp_path / "set.jsonl"
    path.write_text(
        "\n".join([json.dumps(good), "", json.dumps(bad_rating), "{not json"]), encoding="utf-8"
    )
    with pytest.raises(QuestionSetError, match=rf"{path.name}:4: not valid JSON"):
        load_questions(path)
    path.write_text("\n".join([json.dumps(good), "", json.dumps(bad_rating)]), encoding="utf-8")
    with pytest.raises(QuestionSetError) as caught:
        load_questions(path)
    assert (
        f"{path}:3: entry 2 (b): ratings.0.rating: Input should be less than or equal to 5"
        in str(caught.value)
    )


def test_empty_and_shapeless_sets_are_rejected(tmp_path: Path) -> None:
    path = tmp_path / "empty.yaml"
    path.write_text("questions: []\n", encoding="utf-8")
    with pytest.raises(QuestionSetError, match="has no questions"):
        load_questions(path)
    path.write_text("- id: x\n", encoding="utf-8")
    with pytest.raises(QuestionSetError, match=":1: expected a mapping with a 'questions' list"):
        load_questions(path)
    with pytest.raises(QuestionSetError, match="cannot read"):
        load_questions(tmp_path / "missing.yaml")


def test_the_shipped_set_is_found_from_any_working_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert DEFAULT_SET.is_absolute()
    assert len(load_questions(DEFAULT_SET).questions) > 50


def test_every_data_file_of_the_harness_is_package_data() -> None:
    """An installed package carries the question set and the baseline's prompt."""
    root = Path(evaluation.__file__).parent
    pyproject = tomllib.loads((root.parent / "pyproject.toml").read_text(encoding="utf-8"))
    globs = pyproject["tool"]["setuptools"]["package-data"]["evaluation"]
    data = [
        p.relative_to(root).as_posix()
        for p in root.rglob("*")
        if p.is_file() and p.suffix not in {".py", ".pyc"}
    ]
    assert "questions.yaml" in data
    assert all(any(fnmatch(name, g) for g in globs) for name in data), (data, globs)
