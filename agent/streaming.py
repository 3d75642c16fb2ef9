"""Streams the Final Answer while the model is still writing its JSON blob.

The grammar fixes the key order (`thought`, `action`, `action_input`), so once the text reads
`{"thought": "...", "action": "Final Answer", "action_input": "` everything up to the closing
quote is the answer: it is decoded (JSON escapes included) and handed out piece by piece.
Replies in any other shape are streamed after parsing instead.

`ObjectEnd` tells when a reply that opened with a JSON object has closed it, so the loop can stop
generating there instead of waiting for the model's end token (or trailing whitespace).
"""

from __future__ import annotations

import json
import re

_PREFIX = re.compile(
    r'\s*(?:```(?:json)?\s*)?\{\s*(?:"thought"\s*:\s*"(?:[^"\\]|\\.)*"\s*,\s*)?'
    r'"action"\s*:\s*"Final Answer"\s*,\s*"action_input"\s*:\s*"'
)
_SIMPLE_ESCAPES = {
    "n": "\n",
    "t": "\t",
    "r": "\r",
    "b": "\b",
    "f": "\f",
    '"': '"',
    "\\": "\\",
    "/": "/",
}


class FinalAnswerStream:
    """Feed it the completion as it arrives; it returns the newly decoded answer text."""

    def __init__(self) -> None:
        self._buffer = ""
        self._pos: int | None = None
        self.closed = False  # the answer string's closing quote has arrived
        self.ended: str | None = None  # the answer, when the loop stopped it before its end

    @property
    def active(self) -> bool:
        """True once the reply is known to be a Final Answer blob."""
        return self._pos is not None

    def feed(self, text: str) -> str:
        self._buffer += text
        if self._pos is None:
            match = _PREFIX.match(self._buffer)
            if match is None:
                return ""
            self._pos = match.end()
        return self._decode()

    def _decode(self) -> str:
        assert self._pos is not None
        buffer, i, out = self._buffer, self._pos, []
        while i < len(buffer) and not self.closed:
            char = buffer[i]
            if char == '"':
                self.closed = True
                i += 1
            elif char == "\\":
                escape = _escape_at(buffer, i)
                if escape is None:
                    break  # the rest of the escape is still on its way
                out.append(escape[0])
                i += escape[1]
            else:
                j = i
                while j < len(buffer) and buffer[j] not in '"\\':
                    j += 1
                out.append(buffer[i:j])
                i = j
        self._pos = i
        return "".join(out)


class ObjectEnd:
    """Feed it the completion as it arrives; `done` turns True when the reply's first top-level
    JSON object is complete. A reply that does not open with `{` (prose, a fence) never ends
    here: the parser deals with it."""

    def __init__(self) -> None:
        self.done = False
        self._started = False
        self._depth = 0
        self._in_string = False
        self._escaped = False

    def feed(self, text: str) -> bool:
        for char in text:
            if self.done:
                break
            if not self._started:
                if char.isspace():
                    continue
                if char != "{":
                    self.done = False
                    self._started = True
                    self._depth = -1  # not an object: never done
                    continue
                self._started = True
            if self._depth < 0:
                break
            self._step(char)
        return self.done

    def _step(self, char: str) -> None:
        if self._in_string:
            if self._escaped:
                self._escaped = False
            elif char == "\\":
                self._escaped = True
            elif char == '"':
                self._in_string = False
        elif char == '"':
            self._in_string = True
        elif char in "{[":
            self._depth += 1
        elif char in "}]":
            self._depth -= 1
            self.done = self._depth == 0


def partial_final_answer(text: str) -> str | None:
    """The answer text of a (possibly cut-off) Final Answer blob, or None if it is not one."""
    stream = FinalAnswerStream()
    answer = stream.feed(text)
    return answer if stream.active else None


def _escape_at(buffer: str, i: int) -> tuple[str, int] | None:
    if i + 1 >= len(buffer):
        return None
    kind = buffer[i + 1]
    if kind != "u":
        return _SIMPLE_ESCAPES.get(kind, kind), 2
    if i + 6 > len(buffer):
        return None
    code = buffer[i : i + 6]
    if 0xD800 <= _hex(code[2:]) < 0xDC00:  # a surrogate pair: wait for its second half
        if i + 12 > len(buffer):
            return None
        pair = buffer[i : i + 12]
        try:
            return json.loads(f'"{pair}"'), 12
        except json.JSONDecodeError:
            return "\ufffd", 6
    try:
        return json.loads(f'"{code}"'), 6
    except json.JSONDecodeError:
        return "\ufffd", 6


def _hex(digits: str) -> int:
    try:
        return int(digits, 16)
    except ValueError:
        return -1
