"""Untrusted text (titles, tags, names, tool messages, model answers) shown as literal text.

Streamlit renders Markdown, a few directives (`:red[…]`, `:material/…:`, emoji shortcodes) and
LaTeX (`$…$`) in `st.markdown`, captions, alerts, labels and tooltips. A title such as
`[x](http://e)` would become a link and `M*A*S*H` would lose its stars: `md` escapes every
character that can start such markup, so the text shows exactly as stored.
"""

from __future__ import annotations

import re
from typing import Any

# ASCII punctuation that opens inline markup, a link or image (`[`), HTML or an entity, a
# directive (`:red[…]` needs its `[`), math, or an e-mail autolink; parentheses, `!` and `:`
# make nothing without a `[` before them, and titles are full of them
_INLINE = re.compile(r"([\\`*_\[\]<>~$|&@])")
_AUTOLINK = re.compile(r"\b(https?|ftp):(?=//)|\b(www)\.", re.IGNORECASE)
# what only matters at the start of a line: headings, quotes, lists, thematic breaks, setext
_LINE_START = re.compile(r"^(\s*)([#>+\-=])", re.MULTILINE)
_ORDERED = re.compile(r"^(\s*\d+)([.)])", re.MULTILINE)  # "1984. Orwell" is no list


def md(value: Any) -> str:
    """`value` as text that Streamlit's Markdown shows literally, on one line."""
    return _escape(" ".join(str(value).split()))


def md_block(value: Any) -> str:
    """Like `md`, keeping the text's line breaks (a model's answer, an error message)."""
    lines = [_escape(line.rstrip()) for line in str(value).splitlines()]
    return "  \n".join(lines)  # two spaces: a hard line break in Markdown


def _escape(text: str) -> str:
    text = _INLINE.sub(r"\\\1", text)
    text = _AUTOLINK.sub(lambda m: f"{m.group(1)}\\:" if m.group(1) else f"{m.group(2)}\\.", text)
    text = _ORDERED.sub(r"\1\\\2", text)
    return _LINE_START.sub(lambda m: m.group(1) + "\\" + m.group(2), text)
