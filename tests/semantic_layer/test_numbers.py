"""Numbers a text writes: in digits as written, in words through the parser of the text's
language, and never the words of a title or a name."""

from __future__ import annotations

import pytest

from semantic_layer.linking.numbers import digits, spelled


@pytest.mark.parametrize(
    ("text", "language", "found"),
    [
        ("Je mets une étoile à Grease", "fr", [(1.0, "une")]),
        ("Zwei Sterne für Heat, leider.", "de", [(2.0, "Zwei")]),
        ("Tres estrellas para Casino", "es", [(3.0, "Tres")]),
        ("Dai una stella a Rocky", "it", [(1.0, "una")]),
        ("Dou quatro estrelas a Alien", "pt", [(4.0, "quatro")]),
        ("Geef Heat twee sterren", "nl", [(2.0, "twee")]),
        ("Give it three, no, four stars", "en", [(3.0, "three"), (4.0, "four")]),
        ("I loved Heat, remember that", "en", []),
        ("Give it three", "ja", []),  # a language the parser does not read
    ],
)
def test_numbers_written_in_words_are_read_in_the_texts_language(
    text: str, language: str, found: list[tuple[float, str]]
) -> None:
    assert [(n.value, n.text) for n in spelled(text, [], language)] == found


def test_the_words_of_a_title_are_no_number() -> None:
    text = "Seven Samurai gets five stars"
    assert [n.value for n in spelled(text, [(0, len("Seven Samurai"))], "en")] == [5.0]
    assert [n.value for n in spelled(text, [], "en")] == [7.0, 5.0]


def test_digits_outside_names_and_years() -> None:
    text = "Heat (1995) 4,5 stars, not 4.5/5, seen 1,000 times, Se7en too"
    assert digits(text, [(0, 4), (6, 10)]) == [4.5, 4.5, 1000.0]
