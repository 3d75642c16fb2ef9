"""The ReAct prompt, built from template files in `agent/prompts/`, shaped for Mixtral.

Mixtral's chat template has no system role and demands strictly alternating user and assistant
turns, so the instructions open the first user turn, earlier questions and answers follow as
context lines, then the current question with what linking found in it (`linked.txt`: the
movies, people, genres and years the graph knows, and those of the last turns for "it" or
"he"), then one assistant turn per model step and one user turn per Observation.

The instructions and the tool list come first and never change, so a backend that keeps its
KV cache (llama.cpp does) computes them once per process; each step's prompt extends the last
one. Tools are listed compactly: one line per tool and one per argument (type, default, what
it means).
"""

from __future__ import annotations

import json
import string
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from agent.errors import AgentError
from agent.language import language_name
from agent.llm.base import ChatMessage
from semantic_layer.linking.mentions import Linked
from semantic_layer.tools.contract import Tool

PROMPTS_DIR = Path(__file__).parent / "prompts"
HISTORY_TURNS = 6  # earlier question/answer pairs kept in the prompt


class PromptTemplateError(AgentError):
    """A prompt file does not declare exactly the inputs the code fills in."""


@dataclass(frozen=True)
class PromptTemplate:
    """A `$name` template file whose placeholders must equal the declared inputs."""

    name: str
    text: str
    inputs: frozenset[str]

    @classmethod
    def load(
        cls, name: str, inputs: Iterable[str], directory: Path = PROMPTS_DIR
    ) -> PromptTemplate:
        path = directory / f"{name}.txt"
        if not path.is_file():
            raise PromptTemplateError(f"prompt file {path} is missing; restore it.")
        text = path.read_text(encoding="utf-8").strip()
        declared = frozenset(inputs)
        found = {
            m.group("named") or m.group("braced")
            for m in string.Template.pattern.finditer(text)
            if m.group("named") or m.group("braced")
        }
        if found != declared:
            raise PromptTemplateError(
                f"prompt {name}.txt uses {sorted(found)} but the code fills {sorted(declared)}; "
                "make them match."
            )
        return cls(name=name, text=text, inputs=declared)

    def format(self, **values: str) -> str:
        if set(values) != self.inputs:
            raise PromptTemplateError(f"prompt {self.name} needs {sorted(self.inputs)}")
        return string.Template(self.text).substitute(values)


@cache
def _templates(directory: Path = PROMPTS_DIR) -> dict[str, PromptTemplate]:
    return {
        "instructions": PromptTemplate.load("instructions", {"tools", "tool_names"}, directory),
        "question": PromptTemplate.load("question", {"question"}, directory),
        "linked": PromptTemplate.load("linked", {"found"}, directory),
        "earlier": PromptTemplate.load("earlier", {"found"}, directory),
        "answered": PromptTemplate.load("answered", {"found"}, directory),
        "history": PromptTemplate.load("history", {"turns"}, directory),
        "observation": PromptTemplate.load("observation", {"observation"}, directory),
        "final_only": PromptTemplate.load("final_only", {"observation"}, directory),
        "language": PromptTemplate.load("language", {"language"}, directory),
        "retry": PromptTemplate.load("retry", {"observation"}, directory),
        "unmatched": PromptTemplate.load("unmatched", {"name"}, directory),
        "referent": PromptTemplate.load("referent", set(), directory),
        "about": PromptTemplate.load("about", {"found"}, directory),
        **{
            name: PromptTemplate.load(f"corrections/{name}", inputs, directory)
            for name, inputs in _CORRECTIONS.items()
        },
    }


_CORRECTIONS: dict[str, set[str]] = {
    "not_json": {"tool_names"},
    "unknown_action": {"action", "tool_names"},
    "empty_answer": set(),
    "cut_off": set(),
    "invalid_arguments": {"tool", "errors", "arguments"},
    "repeated_call": {"tool"},
    "wrong_kind": {"tool", "errors"},
}


@dataclass(frozen=True)
class ScratchpadStep:
    """One finished step of the current question: the model's reply and what it was told."""

    reply: str  # the assistant turn, as a JSON blob
    observation: str
    retry: bool = False  # a correction: the model is to try again, not to answer yet


class ReactPrompt:
    """Renders the tools once, then builds the message list for each model call."""

    def __init__(self, tools: Sequence[Tool[Any]], directory: Path = PROMPTS_DIR) -> None:
        self._templates = _templates(directory)
        self._tool_names = names = ", ".join(t.name for t in tools)
        self._instructions = self._templates["instructions"].format(
            tools="\n".join(describe_tool(tool) for tool in tools), tool_names=names
        )

    @property
    def instructions(self) -> str:
        """The static head of every prompt: the rules and the tools."""
        return self._instructions

    def messages(
        self,
        question: str,
        history: Sequence[ChatMessage] = (),
        scratchpad: Sequence[ScratchpadStep] = (),
        final_only: bool = False,
        *,
        linked: Linked | None = None,
        earlier: Linked | None = None,
        answered: Sequence[str] = (),
        language: str = "en",
        about: Linked | None = None,
        ask: str = "",
    ) -> list[ChatMessage]:
        """The prompt of one model call. `about`: what a follow-up that names nothing points
        at, as the model chose it (`agent.referent`): shown instead of what the last turns
        asked about and named. `ask`: a line after the question (the referent's question)."""
        turns = _alternating(history)[-2 * HISTORY_TURNS :]
        messages: list[ChatMessage] = []
        lines: list[str] = []
        for user, assistant in zip(turns[::2], turns[1::2], strict=True):
            lines += [f"User: {_one_line(user.content)}", f"You: {_one_line(assistant.content)}"]
        if about is not None or not lines:
            current = self._question(question, linked, about=about)
        else:
            current = self._question(question, linked, earlier, answered)
        if ask:
            current = ChatMessage(role="user", content=f"{current.content}\n{ask}")
        if lines:  # as context, not as replies: a small model copies direct answers
            earlier_text = self._templates["history"].format(turns="\n".join(lines))
            current = ChatMessage(role="user", content=f"{earlier_text}\n\n{current.content}")
        messages.append(current)
        hint = self._language_hint(language)
        for i, step in enumerate(scratchpad):
            last = final_only and i == len(scratchpad) - 1
            name = "final_only" if last else "retry" if step.retry else "observation"
            content = self._templates[name].format(observation=step.observation)
            content += "" if step.retry else hint  # a correction asks for a tool, not the answer
            messages.append(ChatMessage(role="assistant", content=step.reply))
            messages.append(ChatMessage(role="user", content=content))
        first = messages[0]
        messages[0] = ChatMessage(role="user", content=f"{self._instructions}\n\n{first.content}")
        return messages

    def correction(self, problem: str, **details: str) -> str:
        """What the model is told when its reply could not be used (`corrections/*.txt`)."""
        template = self._templates[problem]
        values = {"tool_names": self._tool_names, **details}
        return template.format(**{k: v for k, v in values.items() if k in template.inputs})

    def unmatched(self, name: str) -> str:
        """The line after an Observation that found nothing called `name`: the model may try
        the film's English title or its spelling, once (`unmatched.txt`)."""
        return self._templates["unmatched"].format(name=name)

    def referent(self) -> str:
        """The line that asks for a follow-up written again, naming what it points at
        (`referent.txt`)."""
        return self._templates["referent"].format()

    def _language_hint(self, language: str) -> str:
        """A line asking for the answer in the question's language; none for English (a small
        model told nothing answers a French question in English)."""
        if language == "en":
            return ""
        return "\n" + self._templates["language"].format(language=language_name(language))

    def _question(
        self,
        text: str,
        linked: Linked | None = None,
        earlier: Linked | None = None,
        answered: Sequence[str] = (),
        *,
        about: Linked | None = None,
    ) -> ChatMessage:
        """The question, what linking found in it, what the user asked about earlier in the
        conversation (`earlier`: the user's turns only; "more like that" is about their movie,
        not every title an answer listed) and the people the last answer named (`answered`, by
        name alone: "what else has she been in?" after a cast is about one of them; with a role,
        "actor Sigourney Weaver", the line read as one of what the user asked for)."""
        content = self._templates["question"].format(question=text)
        for template, found in (("linked", linked), ("earlier", earlier)):
            described = describe_linked(found) if found is not None else ""
            if described:
                content += "\n" + self._templates[template].format(found=described)
        if about is not None:  # what a follow-up points at: instead of the last turns' names
            content += "\n" + self._templates["about"].format(found=describe_linked(about))
        if answered:
            content += "\n" + self._templates["answered"].format(found=", ".join(answered))
        return ChatMessage(role="user", content=content)


def describe_linked(linked: Linked) -> str:
    """What linking found, one item per mention: `movie Heat (1995)`, `actor Al Pacino` (or
    `director ...`), `genre Comedy ("funnier")`, `years 1990-1999 ("90s")`; a movie or person
    written otherwise than its name says how it was written (`director Jerry Paris (written
    "Paris")`), so the model sees a place or a word that merely matched; weak mentions are left
    out. A person is shown as the graph mostly holds them (`PersonMatch.role`), not as "person",
    which a small model read as the film_facts tool's `entity_type` and so asked for facts when
    the user wanted a film with or by them. A number written in words is shown as the number
    with its words (`number 1 ("une")`): "Je mets une étoile à Grease" was stored as 4 stars,
    the rating of the one worked example the model had, when it saw no number."""
    items: list[str] = []
    for movie in linked.strong_movies():
        best = movie.best
        same = (
            best.name.casefold() == movie.text.casefold()
            or best.title.casefold() == movie.text.casefold()
        )
        items.append(
            f"movie {best.label}" if same else f'movie {best.label} (written "{movie.text}")'
        )
    for person in linked.strong_people():
        role, name = person.best.role, person.best.name
        same = name.casefold() == person.text.casefold()  # a surname alone is not the name
        items.append(f"{role} {name}" if same else f'{role} {name} (written "{person.text}")')
    for genre in linked.genres:
        same = genre.genre.casefold() == genre.text.casefold()
        items.append(f"genre {genre.genre}" if same else f'genre {genre.genre} ("{genre.text}")')
    for years in linked.years:
        span = f"{years.first}" if years.first == years.last else f"{years.first}-{years.last}"
        items.append(f'years {span} ("{years.text}")')
    for number in linked.spelled:
        items.append(f'number {number.value:g} ("{number.text}")')
    return "; ".join(items)


def _one_line(text: str) -> str:
    return " ".join(text.split())


def describe_tool(tool: Tool[Any]) -> str:
    """`- name: description`, then one line per argument: `name (type, default): meaning`."""
    schema = tool.input_schema
    required = set(schema.get("required", []))
    lines = [f"- {tool.name}: {' '.join(tool.description.split())}"]
    for name, raw in schema.get("properties", {}).items():
        prop = _non_null(raw)
        notes = [_type_of(prop)]
        if name not in required:
            default = prop.get("default")
            notes.append("optional" if default is None else f"default {json.dumps(default)}")
        meaning = " ".join(str(prop.get("description", "")).split())
        lines.append(f"  {name} ({', '.join(notes)})" + (f": {meaning}" if meaning else ""))
    return "\n".join(lines)


def _non_null(prop: dict[str, Any]) -> dict[str, Any]:
    """`X | None` shown as X; the field's own description wins over its type's (an enum's
    docstring must not replace what the field says about when to use it)."""
    options = prop.get("anyOf")
    if isinstance(options, list):
        non_null = [o for o in options if o.get("type") != "null"]
        if len(non_null) == 1:
            return {**non_null[0], **{k: v for k, v in prop.items() if k != "anyOf"}}
    return prop


def _type_of(prop: dict[str, Any]) -> str:
    if "enum" in prop:
        return "one of " + ", ".join(json.dumps(v, ensure_ascii=False) for v in prop["enum"])
    if "const" in prop:
        return json.dumps(prop["const"], ensure_ascii=False)
    kind = prop.get("type")
    if kind == "array":
        return f"list of {_type_of(prop.get('items', {}))}"
    if isinstance(kind, str):
        bounds = [f"{k[:3]} {prop[k]}" for k in ("minimum", "maximum") if k in prop]
        return kind + (f" {' '.join(bounds)}" if bounds else "")
    options = prop.get("anyOf")
    if isinstance(options, list):
        return " or ".join(_type_of(o) for o in options)
    return "any"


def normalize_history(history: Iterable[ChatMessage | Mapping[str, str]]) -> list[ChatMessage]:
    """Accept `ChatMessage`s or `{"role": ..., "content": ...}` dicts (as a UI stores them)."""
    return [
        m if isinstance(m, ChatMessage) else ChatMessage.model_validate(dict(m)) for m in history
    ]


def _alternating(history: Sequence[ChatMessage]) -> list[ChatMessage]:
    """Complete user→assistant pairs only: same-role runs merged, an unanswered question dropped."""
    merged: list[ChatMessage] = []
    for message in history:
        if not message.content.strip():
            continue
        if merged and merged[-1].role == message.role:
            text = f"{merged[-1].content}\n{message.content}"
            merged[-1] = ChatMessage(role=message.role, content=text)
        elif merged or message.role == "user":
            merged.append(message)
    if merged and merged[-1].role == "user":
        merged.pop()
    return merged
