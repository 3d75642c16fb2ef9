"""A tiny guess at a question's language: for the answers the loop writes itself, and for the
hint that asks the model to answer in the question's language (`language_name`).

Kana means Japanese, other CJK ideographs Chinese, `¿`/`¡` Spanish. Otherwise words decide:
two or more function words of one of Spanish, French, German or Italian (more than of any other)
make it that language, anything else is English. Titles are often English inside a foreign
question ("Spirited Away の監督は誰"), so the script decides before the words do, and one
foreign-looking word in a title ("Una", "Die Hard", "La La Land") is not enough.
"""

from __future__ import annotations

import re
from typing import Literal

Language = Literal["en", "es", "fr", "de", "it", "ja", "zh"]

_KANA = re.compile(r"[\u3040-\u30ff\u31f0-\u31ff\uff66-\uff9f]")
_HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_SPANISH_PUNCTUATION = re.compile(r"[¿¡]")
# fmt: off
_WORDS: dict[Language, frozenset[str]] = {
    "es": frozenset({
        "qué", "quién", "quiénes", "cuál", "cuáles", "cómo", "dónde", "cuándo", "película",
        "películas", "dirigió", "actúa", "dime", "recomiéndame", "recomienda", "recomiendas",
        "quiero", "ponle", "parecen", "parece", "encantó", "gustó", "una", "algo", "alguna",
        "mejor", "mejores", "para", "pero", "muy", "buena", "bueno", "hola", "gracias", "sobre",
        "también", "del", "los", "las", "con", "actuó", "parecidas",
    }),
    "fr": frozenset({
        "qui", "quel", "quelle", "quels", "quelles", "réalisé", "réalisés", "réalisée",
        "réalisateur", "joué", "jouait", "recommande", "recommandes", "conseille", "conseilles",
        "moi", "une", "est", "sont", "avec", "pour", "comme", "bonjour", "merci", "salut", "des",
        "les", "dans", "ça", "je", "j'ai", "aimé", "adoré", "donne", "étoiles",
        "quelque", "chose", "bonne", "bon", "parle", "ressemblent", "semblables", "vu",
    }),
    "de": frozenset({
        "wer", "hat", "bei", "regie", "geführt", "gibt", "es", "filme", "wie", "ich", "gebe",
        "sterne", "empfiehl", "empfiehlst", "mir", "einen", "einem", "ein", "eine", "der", "das",
        "und", "ist", "welche", "welcher", "mit", "gespielt", "spielt", "ähnlich",
        "ähnliche", "gedreht", "guten", "hallo", "danke", "etwas", "gern", "gerne",
        "habe", "mag", "mochte", "erzähl", "über", "kannst", "du",
    }),
    "it": frozenset({
        "chi", "ha", "diretto", "regia", "consigliami", "consigli", "che", "di", "della",
        "dello", "simile", "simili", "qualcosa", "vorrei", "ciao", "grazie", "quali", "quale",
        "recitato", "sono", "piace", "piaciuto", "mi", "il", "gli", "dei", "buon", "buona",
        "stelle", "dammi", "parlami", "girato", "con", "un", "una", "uno", "voto", "commedia",
    }),
}
# fmt: on
_NAMES: dict[Language, str] = {
    "en": "English",
    "es": "Spanish",
    "fr": "French",
    "de": "German",
    "it": "Italian",
    "ja": "Japanese",
    "zh": "Chinese",
}
_WORD = re.compile(r"\w+(?:'\w+)?")


def detect_language(text: str) -> Language:
    """`ja`, `zh`, `es`, `fr`, `de`, `it` or `en` (the default when nothing points elsewhere)."""
    if _KANA.search(text):
        return "ja"
    if _HAN.search(text):
        return "zh"
    if _SPANISH_PUNCTUATION.search(text):
        return "es"
    words = set(_WORD.findall(text.lower()))
    counts = {language: len(words & vocabulary) for language, vocabulary in _WORDS.items()}
    best = max(counts, key=lambda language: counts[language])
    tied = sum(count == counts[best] for count in counts.values()) > 1
    return best if counts[best] >= 2 and not tied else "en"


def language_name(language: Language) -> str:
    """The language's English name ("French"), as a prompt names it."""
    return _NAMES[language]
