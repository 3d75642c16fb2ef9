"""Text from outside (a question, a model reply, tool arguments) made safe to encode.

A Python string can hold a lone surrogate (`"\\ud800"`, e.g. from JSON `"\\ud800"`) that UTF-8
cannot encode: the database driver, an HTTP client or the terminal would raise
`UnicodeEncodeError` far from where the text came in. `clean_text` replaces each with U+FFFD at
the edge (the agent's reply parsing, every tool's input), so nothing later meets one.
"""

from __future__ import annotations

from typing import Any

REPLACEMENT = "\ufffd"


def clean_text(text: str) -> str:
    """`text` with every lone surrogate replaced by U+FFFD (unchanged when there is none).

    A valid surrogate pair (two code points, as JSON writes an emoji) becomes its character.
    """
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    return text


def clean_value(value: Any) -> Any:
    """`clean_text` applied to every string in nested dicts and lists (keys included)."""
    if isinstance(value, str):
        return clean_text(value)
    if isinstance(value, dict):
        return {clean_value(k): clean_value(v) for k, v in value.items()}
    if isinstance(value, list):
        return [clean_value(v) for v in value]
    return value
