"""Text that can be sent as UTF-8: lone surrogates (`\\ud800`) become U+FFFD.

A question pasted from a broken source, or a JSON `\\ud800` escape in a model's reply, gives
Python a string that `str.encode("utf-8")` refuses; the HTTP backends send and receive only
scrubbed text, so such a string is shown as `�` instead of ending the turn.
"""

from __future__ import annotations


def scrub(text: str) -> str:
    """`text` with each unpaired surrogate replaced; a valid pair becomes its character."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    return text
