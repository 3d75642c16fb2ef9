"""A tiny guess at a question's language, for the few answers the loop writes itself.

Only what the default answers need (`agent/prompts/answers/<code>/`): kana means Japanese, other
CJK ideographs Chinese, `¿`/`¡` or two Spanish function words Spanish, anything else English.
Titles are often English inside a foreign question ("Spirited Away の監督は誰"), so
the script decides before the words do, and one Spanish word in a title ("Una") is not enough.
"""

from __future__ import annotations

import re
from typing import Literal

Language = Literal["en", "es", "ja", "zh"]

_KANA = re.compile(r"[\u3040-\u30ff\u31f0-\u31ff\uff66-\uff9f]")
_HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_SPANISH_PUNCTUATION = re.compile(r"[¿¡]")
# fmt: off
_SPANISH_WORDS = frozenset({
    "qué", "quién", "quiénes", "cuál", "cuáles", "cómo", "dónde", "cuándo", "película",
    "películas", "dirigió", "actúa", "dime", "recomiéndame", "recomienda", "recomiendas",
    "quiero", "ponle", "parecen", "parece", "encantó", "gustó", "una", "algo", "alguna", "mejor",
    "mejores", "para", "pero", "muy", "buena", "bueno", "hola", "gracias", "sobre", "también",
})
# fmt: on
_WORD = re.compile(r"\w+")


def detect_language(text: str) -> Language:
    """`ja`, `zh`, `es` or `en` (the default when nothing points elsewhere)."""
    if _KANA.search(text):
        return "ja"
    if _HAN.search(text):
        return "zh"
    if _SPANISH_PUNCTUATION.search(text):
        return "es"
    words = _WORD.findall(text.lower())
    return "es" if sum(w in _SPANISH_WORDS for w in words) >= 2 else "en"
