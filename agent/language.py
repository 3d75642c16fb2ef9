"""A question's language, for the answers the loop writes itself and for the hint that asks the
model to answer in the question's language (`language_name`).

A well-kept detector decides (lingua, restricted to the languages the agent answers in, in its
default high-accuracy mode: the low-accuracy mode reads trigrams only and is confidently wrong on
questions of a few words, "Is Das Boot a war movie?" German at 0.99). Two things make movie questions hard for any detector, and each has a
rule of shape, not of words:

- Titles and names are often English inside a question in another language ("Quem dirigiu
  Apocalypse Now?", "Spirited Away の監督は誰"), or foreign inside an English one ("Who directed
  La La Land?", "Rate Gattaca a 4"). Where linking found the names a question writes, the
  detector reads the question without them: they are no language's words. Where it found none,
  capitalised words after the first are mostly such names, so the detector also reads the
  question without them, and the more confident reading wins.
- Short texts ("Hi", "Danke", "Surprise me") are guesses; below a few words the answer is
  English unless the detector is sure (a script of its own: kana, hangul, ideographs).
- The detector reads letters only, so it cannot see the one mark of punctuation that only one
  of the languages answered writes: a question or an exclamation opened with "¿" or "¡" is
  Spanish ("¿Qué nota le puse a Titanic?" reads French 0.31, Spanish 0.29). The mark must open
  the question's own words, not a title's ("Who starred in ¡Three Amigos!?").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache

from lingua import IsoCode639_1, LanguageDetector, LanguageDetectorBuilder
from lingua import Language as _Lingua

#: An ISO 639-1 code: "en", "fr", ...
Language = str

DEFAULT_LANGUAGE: Language = "en"
_ANSWERED = (
    _Lingua.ENGLISH,
    _Lingua.FRENCH,
    _Lingua.GERMAN,
    _Lingua.SPANISH,
    _Lingua.ITALIAN,
    _Lingua.PORTUGUESE,
    _Lingua.DUTCH,
    _Lingua.JAPANESE,
    _Lingua.CHINESE,
    _Lingua.KOREAN,
)
_SURE = 0.8  # confidence the detector gives a script of its own or a clear sentence
_MIN_WORDS = 3  # fewer words than this are a guess unless the detector is sure
_MIN_MARGIN = 0.1  # a guess must lead the next language by this much
_CLOSE = 0.5  # a language read at this share of the best reading's confidence may be it
_SPANISH_OPENING = re.compile(r"[¿¡](?=[^\W\d_])")  # "¿Qué", "¡Hola": a mark before a letter


@cache
def _detector() -> LanguageDetector:
    return LanguageDetectorBuilder.from_languages(*_ANSWERED).build()


def _without_names(words: list[str]) -> list[str]:
    """The words after the first that do not start with a capital: the question, less the
    titles and names inside it."""
    return words[:1] + [w for w in words[1:] if not w[:1].isupper()]


def _code(language: _Lingua) -> Language:
    return language.iso_code_639_1.name.lower()


def _reading(sample: str) -> tuple[float, float, _Lingua | None]:
    """The detector's best language for the sample, its confidence and the default language's
    (the runner-up's where the best is the default): a close call between two other languages
    ("la note de": French or Italian) is still not the default."""
    values = _detector().compute_language_confidence_values(sample)
    if not values or values[0].value == 0:
        return 0.0, 0.0, None
    best = values[0]
    if _code(best.language) == DEFAULT_LANGUAGE:
        others = [v.value for v in values[1:]]
    else:
        others = [v.value for v in values[1:] if _code(v.language) == DEFAULT_LANGUAGE]
    return best.value, max(others, default=0.0), best.language


def _without_spans(text: str, spans: Sequence[tuple[int, int]]) -> str:
    """The text less the character spans (start, end) given."""
    kept, at = [], 0
    for start, end in sorted(spans):  # spans may overlap (a name found as a movie and a person)
        kept.append(text[at:start])  # empty where this span starts inside the one before
        at = max(at, end)
    kept.append(text[at:])
    return " ".join(kept)


def _words(text: str) -> list[str]:
    return [w for w in text.split() if any(c.isalpha() for c in w)]


def detect_language(text: str, names: Sequence[tuple[int, int]] = ()) -> Language:
    """The ISO 639-1 code of the text's language among those answered; "en" when the text may
    well be English (a close call between two other languages is the better of them).

    `names` are the spans (start, end) of the titles and names linking found in the text: the
    detector reads the text without them. Without any, it reads the whole text and the text
    less its capitalised words, and the more confident reading wins."""
    text = text.encode("utf-8", "replace").decode("utf-8")  # a lone surrogate becomes "?"
    words = _words(text)
    if not words:
        return DEFAULT_LANGUAGE
    if _SPANISH_OPENING.search(_without_spans(text, names)):
        return "es"
    if names and (rest := _words(_without_spans(text, names))):
        samples = {" ".join(rest)}
    else:  # no name found, or nothing but names
        samples = {" ".join(words), " ".join(_without_names(words))}
    best, runner_up, language = max(
        (_reading(sample) for sample in samples), key=lambda reading: reading[0]
    )
    if language is None:
        return DEFAULT_LANGUAGE
    if best >= _SURE:
        return _code(language)
    if len(words) < _MIN_WORDS or best - runner_up < _MIN_MARGIN:
        return DEFAULT_LANGUAGE
    return _code(language)


def reads_as(text: str, language: Language, names: Sequence[tuple[int, int]] = ()) -> bool:
    """Whether the text may well be in `language`: it is the language detected, or the detector
    gives it at least half the confidence of its best reading (a short text in one of two close
    languages: "Guardado: 5/5 para Titanic (1997)." reads Portuguese 0.44, Spanish 0.41).
    `names` as for `detect_language`."""
    if detect_language(text, names) == language:
        return True
    sample = _without_spans(text, names) if names else text
    values = _detector().compute_language_confidence_values(sample)
    if not values or values[0].value == 0:
        return False
    mine = next((v.value for v in values if _code(v.language) == language), 0.0)
    return mine >= _CLOSE * values[0].value


def language_name(code: str) -> str:
    """The language's English name ("French"), as a prompt names it; a code not answered is
    refused with a clear error."""
    try:
        language = _Lingua.from_iso_code_639_1(IsoCode639_1.from_str(code))
    except ValueError:
        raise ValueError(f"{code!r} is not an ISO 639-1 language code.") from None
    return language.name.title()
