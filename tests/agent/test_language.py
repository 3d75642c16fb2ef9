"""The question's language, by kind of question: each language, titles in another language
inside the question, and texts too short to tell."""
# ruff: noqa: RUF001  (full-width punctuation is what Japanese and Chinese questions hold)

from __future__ import annotations

import pytest

from agent.language import detect_language, language_name


@pytest.mark.parametrize(
    ("question", "language"),
    [
        ("Who directed Heat?", "en"),
        ("Qui a réalisé Le Fabuleux Destin d'Amélie Poulain ?", "fr"),
        ("Empfiehl mir einen Film wie Heat", "de"),
        ("¿Quién dirigió Pulp Fiction?", "es"),
        ("Chi ha diretto La vita è bella?", "it"),
        ("Quais filmes o Tom Hanks fez?", "pt"),
        ("Welke films heeft Tom Hanks gemaakt?", "nl"),
        ("おすすめのアニメ映画を教えてください。", "ja"),
        ("你好！今天怎么样？", "zh"),
        ("좋은 영화 추천해 주세요", "ko"),
    ],
)
def test_each_answered_language_is_recognised(question: str, language: str) -> None:
    assert detect_language(question) == language


@pytest.mark.parametrize(
    ("question", "language"),
    [
        ("Spirited Away の監督は誰", "ja"),
        ("Ang Lee 导演过哪些电影？", "zh"),
        ("Inception 같은 영화 추천해줘", "ko"),
        ("Wer hat Die Hard gedreht?", "de"),
        ("Quem dirigiu Apocalypse Now?", "pt"),
        ("Wie heeft Psycho geregisseerd?", "nl"),
        ("Un film comme Inception ?", "fr"),
        ("Recomenda-me um filme como Heat", "pt"),
        ("Wer hat bei Alien Regie geführt?", "de"),
        ("Qui joue dans Titanic ?", "fr"),
        ("Chi recita in Titanic?", "it"),
        ("Wie speelde in Titanic?", "nl"),
    ],
)
def test_an_english_title_does_not_make_the_question_english(question: str, language: str) -> None:
    assert detect_language(question) == language


@pytest.mark.parametrize(
    "question",
    [
        "Who directed La La Land?",
        "Is Una Noche any good?",
        "Tell me about La Dolce Vita",
        "Tell me about Los Angeles Plays Itself",
        "Something like Die Hard",
        "I loved Das Boot",
        "Is Das Boot a war movie?",
        "who made the big lebowski",
        "reminiscent of Amélie",
    ],
)
def test_a_foreign_title_does_not_make_an_english_question_foreign(question: str) -> None:
    assert detect_language(question) == "en"


def _span(text: str, name: str) -> tuple[int, int]:
    start = text.index(name)
    return start, start + len(name)


@pytest.mark.parametrize(
    ("question", "name", "language"),
    [
        ("Rate Gattaca a 4 for me.", "Gattaca", "en"),
        ("I'd rate Shrek a 2.5.", "Shrek", "en"),
        ("Suggest a Sergio Leone western.", "Sergio Leone", "en"),
        ("nicolas cage filmography", "nicolas cage", "en"),
        ("Quem dirigiu Apocalypse Now?", "Apocalypse Now", "pt"),
        ("Gib Pulp Fiction 4 Sterne.", "Pulp Fiction", "de"),
        ("Wer hat bei Alien Regie geführt?", "Alien", "de"),
    ],
)
def test_the_names_linking_found_are_read_as_no_language(
    question: str, name: str, language: str
) -> None:
    """A title or a name is no language's words: the question is read without the spans linking
    found, and stays as long as it was for the rule on short texts."""
    assert detect_language(question, [_span(question, name)]) == language


@pytest.mark.parametrize(
    ("question", "name", "language"),
    [
        ("Quelle est la note de Matrix ?", "Matrix", "fr"),  # French just ahead of Italian
        ("Uma comédia, mas sem romance, por favor.", "", "pt"),  # Portuguese, then Spanish
    ],
)
def test_a_close_call_between_two_other_languages_is_not_english(
    question: str, name: str, language: str
) -> None:
    """English is the answer when the text may well be English, not when the detector hesitates
    between two other languages and reads English far behind both."""
    assert detect_language(question, [_span(question, name)] if name else []) == language


def test_a_question_that_is_only_a_name_is_read_as_a_whole() -> None:
    assert detect_language("Amélie", [(0, 6)]) == detect_language("Amélie")
    assert detect_language("カジノ", [(0, 3)]) == "ja"


@pytest.mark.parametrize("text", ["", "   ", "?!", "42", "Hi", "Danke", "Surprise me", "Tom Hanks"])
def test_a_text_too_short_to_tell_is_english(text: str) -> None:
    assert detect_language(text) == "en"


def test_a_script_of_its_own_decides_even_a_single_word() -> None:
    assert detect_language("カジノ") == "ja"


def test_language_names_are_english_names_of_the_codes() -> None:
    assert [language_name(c) for c in ("en", "fr", "pt", "nl", "ko", "zh")] == [
        "English",
        "French",
        "Portuguese",
        "Dutch",
        "Korean",
        "Chinese",
    ]


def test_an_unknown_code_is_refused_with_a_sentence() -> None:
    with pytest.raises(ValueError, match="not an ISO 639-1 language code"):
        language_name("xx")


def test_a_lone_surrogate_is_read_past() -> None:
    assert detect_language("Who directed \ud800Heat?") == "en"
    assert detect_language("Wer hat bei \udfffAlien Regie geführt?") == "de"


@pytest.mark.parametrize(
    ("question", "name", "language"),
    [
        ("¿Qué nota le puse a Titanic?", "Titanic", "es"),  # letters alone read French
        ("¡Hola! Algo para ver", "", "es"),
        ("Who starred in ¡Three Amigos!?", "Three Amigos", "en"),  # the title's mark, not its
    ],
)
def test_a_question_opened_with_an_inverted_mark_is_spanish(
    question: str, name: str, language: str
) -> None:
    """The one mark of punctuation only Spanish writes decides, where it opens the question's
    own words."""
    assert detect_language(question, [_span(question, name)] if name else []) == language
