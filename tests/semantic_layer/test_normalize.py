"""The matching keys of titles and names: spellings people use for the same thing agree."""

import pytest

from semantic_layer.normalize import normalize_name, normalize_title


@pytest.mark.parametrize(
    "spellings",
    [
        ["The Matrix (1999)", "Matrix, The", "matrix"],
        ["Amélie", "Amelie", "AMELIE"],
        ["Dumb & Dumber", "Dumb and Dumber"],
        ["12 Monkeys", "Twelve Monkeys"],
        ["Rocky II", "Rocky 2", "Rocky Two"],
        ["8 1/2", "8½", "Eight and a Half"],
        ["Pan's Labyrinth", "Pans Labyrinth", "Pan\u2019s Labyrinth"],
    ],
)
def test_title_spellings_share_a_key(spellings: list[str]) -> None:
    assert len({normalize_title(s) for s in spellings}) == 1, spellings


@pytest.mark.parametrize(
    "different",
    [
        ["Seven", "Seve"],
        ["Se7en", "Seven"],  # found through the alias, not by the key
        ["V for Vendetta", "Five for Vendetta"],  # "V", "X", "I" are not read as numbers
        ["Malcolm X", "Malcolm Ten"],
    ],
)
def test_different_titles_keep_different_keys(different: list[str]) -> None:
    assert len({normalize_title(s) for s in different}) == len(different)


@pytest.mark.parametrize(
    "spellings",
    [
        ["J. F. Lawton", "J.F. Lawton", "JF Lawton", "jf lawton"],
        ["René Clément", "Rene Clement", "  Rene   Clement "],
        ["Kar-wai Wong", "Kar Wai Wong"],
    ],
)
def test_name_spellings_share_a_key(spellings: list[str]) -> None:
    assert len({normalize_name(s) for s in spellings}) == 1, spellings


def test_a_middle_initial_stays_a_word() -> None:
    assert normalize_name("Michael J. Fox") == "michael j fox"
