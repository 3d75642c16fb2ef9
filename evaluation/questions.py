"""A question set: YAML (`questions:` list) or JSONL (one question a line), validated on load.

Each entry names the question, its category and language, optional chat history, optional
ratings the session user has already given (stored before the question runs), and what is
expected: the tool of the first call (`null` = answer without a tool; a list = any of these),
key arguments of that call (only the keys listed are checked; a list value = any of these),
and facts the answer must contain. `also` names other tools that answer the question as well
(their result holds the facts too), each with its own key arguments: "Films directed by X?"
is answered by `film_facts` about X and by `top_movies_by_director` with `director: X`. `verify` is free-form and only read by the set's own test.

Every problem is reported with the file, the line and the entry, all at once.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from evaluation.defaults import DEFAULT_SET as DEFAULT_SET  # its home before `defaults`

Scalar = str | int | float | bool | None


class QuestionSetError(ValueError):
    """The question set cannot be used; the text lists every problem with file and line."""


class Turn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    role: Literal["user", "assistant"]
    content: str = Field(min_length=1)


class Rating(BaseModel):
    """A rating the session user gave before the question (stored through the Memory tool)."""

    model_config = ConfigDict(extra="forbid")
    movie: str = Field(min_length=1)
    rating: int = Field(ge=1, le=5)


Args = dict[str, Scalar | list[Scalar]]


class Alternative(BaseModel):
    """Another tool that answers the question, with the key arguments it must get."""

    model_config = ConfigDict(extra="forbid")
    tool: str = Field(min_length=1)
    args: Args = Field(default_factory=dict)


class Expectation(BaseModel):
    model_config = ConfigDict(extra="forbid")
    tool: list[str | None] = Field(description="accepted tools of the first call; None = no tool")
    args: Args = Field(default_factory=dict)
    facts: list[str] = Field(default_factory=list)
    also: list[Alternative] = Field(default_factory=list)

    def accepted(self) -> list[tuple[str | None, Args]]:
        """Every accepted first tool with the key arguments it must get."""
        return [(t, self.args) for t in self.tool] + [(a.tool, a.args) for a in self.also]

    @field_validator("tool", mode="before")
    @classmethod
    def _one_or_many(cls, value: Any) -> Any:
        return value if isinstance(value, list) else [value]

    @field_validator("tool")
    @classmethod
    def _not_empty(cls, value: list[str | None]) -> list[str | None]:
        if not value:
            raise ValueError("name at least one tool (or null for no tool)")
        return value

    @field_validator("facts")
    @classmethod
    def _facts_not_blank(cls, value: list[str]) -> list[str]:
        if any(not fact.strip() for fact in value):
            raise ValueError("a fact is blank")
        return value


class Question(BaseModel):
    model_config = ConfigDict(extra="forbid")
    id: str = Field(min_length=1)
    question: str = Field(min_length=1)
    category: str = Field(min_length=1)
    language: str = "en"
    history: list[Turn] = Field(default_factory=list)
    ratings: list[Rating] = Field(default_factory=list)
    expect: Expectation
    verify: list[dict[str, Any]] = Field(default_factory=list)
    line: int = Field(0, exclude=True)  # where the entry starts in its file

    def said(self) -> str:
        """Everything the conversation said before the answer: the earlier turns and the question."""
        return " ".join([*(t.content for t in self.history), self.question])


class QuestionSet(BaseModel):
    path: str
    questions: list[Question]

    def tool_names(self) -> set[str]:
        return {t for q in self.questions for t, _ in q.expect.accepted() if t is not None}


def load_questions(path: Path | str) -> QuestionSet:
    """Read and validate a `.yaml`/`.yml` or `.jsonl` question set."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise QuestionSetError(f"{path}: cannot read the question set ({e.strerror}).") from e
    entries = _jsonl_entries(path, text) if path.suffix == ".jsonl" else _yaml_entries(path, text)
    questions: list[Question] = []
    problems: list[str] = []
    seen: dict[str, int] = {}
    for index, (line, raw) in enumerate(entries, start=1):
        where = f"{path}:{line}: entry {index}"
        if not isinstance(raw, dict):
            problems.append(f"{where}: expected a mapping, got {type(raw).__name__}")
            continue
        if raw.get("id"):
            where += f" ({raw['id']})"
        try:
            question = Question.model_validate({**raw, "line": line})
        except ValidationError as e:
            problems += [f"{where}: {_field(err)}: {err['msg']}" for err in e.errors()]
            continue
        if question.id in seen:
            problems.append(f"{where}: id repeats the entry on line {seen[question.id]}")
        seen.setdefault(question.id, line)
        questions.append(question)
    if not entries:
        problems.append(f"{path}: the set has no questions")
    if problems:
        raise QuestionSetError("\n".join(problems))
    return QuestionSet(path=str(path), questions=questions)


def _yaml_entries(path: Path, text: str) -> list[tuple[int, Any]]:
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
        data = yaml.safe_load(text)
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        line = f":{mark.line + 1}" if mark is not None else ""
        raise QuestionSetError(f"{path}{line}: not valid YAML ({e})") from e
    if not isinstance(data, dict) or not isinstance(data.get("questions"), list):
        raise QuestionSetError(f"{path}:1: expected a mapping with a 'questions' list")
    assert isinstance(root, yaml.MappingNode)
    node = next(v for k, v in root.value if k.value == "questions")
    lines = [item.start_mark.line + 1 for item in node.value]
    return list(zip(lines, data["questions"], strict=True))


def _jsonl_entries(path: Path, text: str) -> list[tuple[int, Any]]:
    entries: list[tuple[int, Any]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            entries.append((number, json.loads(line)))
        except json.JSONDecodeError as e:
            raise QuestionSetError(f"{path}:{number}: not valid JSON ({e.msg})") from e
    return entries


def _field(error: Any) -> str:
    return ".".join(str(part) for part in error["loc"]) or "entry"
