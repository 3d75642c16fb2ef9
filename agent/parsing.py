"""Turns one model reply into a tool call, a final answer, or a problem to tell the model about.

Never raises. Handles what open models write when no grammar holds them: JSON with or without
fences, several blobs (the first usable one wins), `{"action": null}`, unknown or misspelled
actions, the classic prose form (`Action: x` / `Action Input: {...}` / `Final Answer: ...`),
invented Observations (everything from the first one on is dropped), plain prose with no
Final Answer (taken as the answer), and replies cut off by the token limit.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from agent.streaming import partial_final_answer
from semantic_layer.text_safety import clean_text, clean_value

Problem = Literal["not_json", "unknown_action", "empty_answer", "cut_off"]

_ACTION_KEYS = ("action", "tool", "name", "function", "tool_name")
_INPUT_KEYS = ("action_input", "tool_input", "arguments", "args", "parameters", "input")
_FINAL_NAMES = {"finalanswer", "final", "answer", "respond", "response", "reply"}
_NULL_NAMES = {"", "null", "none", "nil"}
_OBSERVATION = re.compile(r"(?:^|\n)[ \t*#]*Observation[ \t*]*:", re.IGNORECASE)
_PROSE_ACTION = re.compile(
    r"Action[ \t*]*:[ \t*]*`*(?P<name>[^\n`]+?)`*[ \t]*\n+[ \t*]*Action[ _]Input[ \t*]*:[ \t*]*(?P<input>.*)",
    re.IGNORECASE | re.DOTALL,
)
_PROSE_FINAL = re.compile(
    r"Final[ _]Answer[ \t*]*:[ \t*]*(?P<answer>.*)", re.IGNORECASE | re.DOTALL
)
_THOUGHT = re.compile(r"^\s*Thought[ \t*]*:[ \t*]*(?P<thought>[^\n]*)\n?", re.IGNORECASE)
_ACTION_MARKER = re.compile(r"^[ \t*]*Action(?:[ _]Input)?[ \t*]*:", re.IGNORECASE | re.MULTILINE)


@dataclass(frozen=True)
class ToolCall:
    tool: str
    args: Any  # usually a dict; validated against the tool's schema before dispatch
    thought: str = ""


@dataclass(frozen=True)
class Answer:
    text: str
    thought: str = ""


@dataclass(frozen=True)
class Malformed:
    problem: Problem
    details: dict[str, str] = field(default_factory=dict)
    fallback_answer: str | None = None  # usable as the answer if the model never recovers


ParsedStep = ToolCall | Answer | Malformed


def parse_step(text: str, tool_names: Sequence[str], truncated: bool = False) -> ParsedStep:
    """Read one reply. `truncated`: the server stopped at the token limit."""
    head = _before_invented_observation(clean_text(text))
    if not head:
        return Malformed("empty_answer")
    for blob in _json_objects(head):
        parsed = _from_blob(blob, tool_names)
        if parsed is not None:
            return parsed
    prose = _from_prose(head, tool_names)
    if prose is not None:
        return prose
    partial = partial_final_answer(head)
    if partial is not None and partial.strip():
        return Answer(text=partial.strip() + ("…" if truncated else ""))
    if truncated or head.lstrip().startswith(("{", "```")):
        return Malformed("cut_off" if truncated else "not_json")
    return _plain_prose(head)


def _before_invented_observation(text: str) -> str:
    match = _OBSERVATION.search(text)
    if match is None:
        return text.strip()
    head = text[: match.start()].strip()
    return head or text.strip()


def _json_objects(text: str) -> list[dict[str, Any]]:
    """Every top-level JSON object in the text, in order, wherever it sits (fences or not).

    JSON nested deeper than Python's recursion limit ends the search: what was found before
    it counts, the rest is not JSON (and goes back to the model as such).
    """
    decoder = json.JSONDecoder()
    found: list[dict[str, Any]] = []
    i = text.find("{")
    while i != -1:
        try:
            value, end = decoder.raw_decode(text, i)
        except json.JSONDecodeError:
            i = text.find("{", i + 1)
            continue
        except RecursionError:
            break
        if isinstance(value, dict):
            found.append(clean_value(value))  # "\\ud800" in JSON decodes to a lone surrogate
        i = text.find("{", end)
    return found


def _from_blob(blob: dict[str, Any], tool_names: Sequence[str]) -> ParsedStep | None:
    key = next((k for k in _ACTION_KEYS if k in blob), None)
    if key is None:
        return None
    name, raw_input = blob[key], next((blob[k] for k in _INPUT_KEYS if k in blob), None)
    thought = str(blob.get("thought") or "")
    return _interpret(name, raw_input, thought, tool_names)


def _interpret(name: Any, raw_input: Any, thought: str, tool_names: Sequence[str]) -> ParsedStep:
    label = "" if name is None else str(name).strip()
    if label.lower() in _NULL_NAMES:
        if isinstance(raw_input, str) and raw_input.strip():
            return Answer(text=raw_input.strip(), thought=thought)
        return Malformed("unknown_action", {"action": "null"})
    tool = _match_tool(label, tool_names)
    if tool is not None:
        return ToolCall(tool=tool, args=_decode_input(raw_input), thought=thought)
    if _squash(label) in _FINAL_NAMES:
        answer = _answer_text(raw_input)
        if not answer:
            return Malformed("empty_answer")
        return Answer(text=answer, thought=thought)
    return Malformed("unknown_action", {"action": label[:80]})


def _match_tool(label: str, tool_names: Sequence[str]) -> str | None:
    if label in tool_names:
        return label
    squashed = _squash(label)
    matches = [n for n in tool_names if _squash(n) == squashed or _squash(n) + "tool" == squashed]
    return matches[0] if len(matches) == 1 else None


def _squash(label: str) -> str:
    return re.sub(r"[^a-z0-9]", "", label.lower())


def _decode_input(raw: Any) -> Any:
    if raw is None:
        return {}
    if isinstance(raw, str):
        text = raw.strip().strip("`").removeprefix("json").strip()
        objects = _json_objects(text)
        if objects and text.startswith("{"):
            return objects[0]
        return raw.strip()
    return raw


def _answer_text(raw: Any) -> str:
    if raw is None:
        return ""
    if isinstance(raw, str):
        return raw.strip()
    if isinstance(raw, dict):
        texts = [v for v in raw.values() if isinstance(v, str) and v.strip()]
        if len(texts) == 1:
            return texts[0].strip()
    return json.dumps(raw, ensure_ascii=False)


def _from_prose(text: str, tool_names: Sequence[str]) -> ParsedStep | None:
    thought_match = _THOUGHT.match(text)
    thought = thought_match.group("thought").strip() if thought_match else ""
    action = _PROSE_ACTION.search(text)
    final = _PROSE_FINAL.search(text)
    if action and (final is None or action.start() < final.start()):
        raw_input = action.group("input").strip()
        return _interpret(action.group("name"), raw_input, thought, tool_names)
    if final:
        answer = final.group("answer").strip()
        return Answer(text=answer, thought=thought) if answer else Malformed("empty_answer")
    return None


def _plain_prose(text: str) -> ParsedStep:
    """No JSON and no Final Answer: prose is the answer, unless it is only a thought or an action."""
    answer = _THOUGHT.sub("", text, count=1).strip()
    if _ACTION_MARKER.search(text) or not answer:
        return Malformed("not_json", fallback_answer=answer or None)
    return Answer(text=answer)
