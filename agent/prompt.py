"""The ReAct prompt, built from template files in `agent/prompts/`, shaped for Mixtral.

Mixtral's chat template has no system role and demands strictly alternating user and assistant
turns, so the instructions open the first user turn, earlier questions and answers follow as
turn pairs (answers rendered as Final Answer blobs, so the format stays consistent), then the
current question, then one assistant turn per model step and one user turn per Observation.
"""

from __future__ import annotations

import json
import string
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from langchain_core.tools import BaseTool, render_text_description_and_args

from agent.errors import AgentError
from agent.grammar import FINAL_ANSWER, resolved_args_schema
from agent.llm.base import ChatMessage

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
        "observation": PromptTemplate.load("observation", {"observation"}, directory),
        "final_only": PromptTemplate.load("final_only", {"observation"}, directory),
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
}


@dataclass(frozen=True)
class ScratchpadStep:
    """One finished step of the current question: the model's reply and what it was told."""

    reply: str  # the assistant turn, as a JSON blob
    observation: str


class ReactPrompt:
    """Renders the tools once, then builds the message list for each model call."""

    def __init__(self, tools: Sequence[BaseTool], directory: Path = PROMPTS_DIR) -> None:
        self._templates = _templates(directory)
        self._tool_names = names = ", ".join(t.name for t in tools)
        views: list[BaseTool] = [_ToolView.of(tool) for tool in tools]
        self._instructions = self._templates["instructions"].format(
            tools=render_text_description_and_args(views), tool_names=names
        )

    def messages(
        self,
        question: str,
        history: Sequence[ChatMessage] = (),
        scratchpad: Sequence[ScratchpadStep] = (),
        final_only: bool = False,
    ) -> list[ChatMessage]:
        turns = _alternating(history)[-2 * HISTORY_TURNS :]
        messages: list[ChatMessage] = []
        for user, assistant in zip(turns[::2], turns[1::2], strict=True):
            messages.append(self._question(user.content))
            messages.append(ChatMessage(role="assistant", content=final_blob(assistant.content)))
        messages.append(self._question(question))
        for i, step in enumerate(scratchpad):
            last = final_only and i == len(scratchpad) - 1
            template = self._templates["final_only" if last else "observation"]
            messages.append(ChatMessage(role="assistant", content=step.reply))
            messages.append(
                ChatMessage(role="user", content=template.format(observation=step.observation))
            )
        first = messages[0]
        messages[0] = ChatMessage(role="user", content=f"{self._instructions}\n\n{first.content}")
        return messages

    def correction(self, problem: str, **details: str) -> str:
        """What the model is told when its reply could not be used (`corrections/*.txt`)."""
        template = self._templates[problem]
        values = {"tool_names": self._tool_names, **details}
        return template.format(**{k: v for k, v in values.items() if k in template.inputs})

    def _question(self, text: str) -> ChatMessage:
        return ChatMessage(role="user", content=self._templates["question"].format(question=text))


class _ToolView(BaseTool):
    """A tool as the prompt shows it: enums inlined, optional marked by absence from `required`."""

    @classmethod
    def of(cls, tool: BaseTool) -> _ToolView:
        schema = resolved_args_schema(tool)
        properties = {n: _compact(p) for n, p in schema.get("properties", {}).items()}
        view_schema = {
            "type": "object",
            "properties": properties,
            "required": schema.get("required", []),
        }
        return cls(name=tool.name, description=tool.description, args_schema=view_schema)

    def _run(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError("a prompt view only renders")


def _compact(prop: dict[str, Any]) -> dict[str, Any]:
    """Fewer tokens: no titles, `X | None` shown as X, no `default: None`."""
    options = prop.get("anyOf")
    if isinstance(options, list):
        non_null = [o for o in options if o.get("type") != "null"]
        if len(non_null) == 1:
            prop = {**{k: v for k, v in prop.items() if k != "anyOf"}, **non_null[0]}
    return {
        k: v
        for k, v in prop.items()
        if k != "title" and not (k == "default" and v is None) and k != "additionalProperties"
    }


def final_blob(answer: str, thought: str = "I can answer now.") -> str:
    """An answer written the way the model is asked to write one."""
    return json.dumps(
        {"thought": thought, "action": FINAL_ANSWER, "action_input": answer}, ensure_ascii=False
    )


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
