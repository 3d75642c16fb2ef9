import pytest

from data_import.titles import display_title


@pytest.mark.parametrize(
    ("raw", "title", "year"),
    [
        ("Matrix, The (1999)", "The Matrix", 1999),
        ("Heat (1995)", "Heat", 1995),
        ("Great Day in Harlem, A (1994)", "A Great Day in Harlem", 1994),
        ("Misérables, Les (1995)", "Les Misérables", 1995),
        (
            "City of Lost Children, The (Cité des enfants perdus, La) (1995)",
            "The City of Lost Children (La Cité des enfants perdus)",
            1995,
        ),
        ("Babylon 5", "Babylon 5", None),
        ("Stranger Things (2016-)", "Stranger Things", 2016),
        ("Hatari! (1962)", "Hatari!", 1962),
    ],
)
def test_titles_are_stored_the_way_people_say_them(raw: str, title: str, year: int | None) -> None:
    assert display_title(raw) == (title, year)
