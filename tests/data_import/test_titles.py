"""Splitting MovieLens titles into the display title, year and aliases (real ml-latest-small
titles, tricky ones included)."""

import csv
from pathlib import Path

import pytest

from data_import.titles import alias_rows, display_title, split_title


@pytest.mark.parametrize(
    ("raw", "title", "year"),
    [
        ("Matrix, The (1999)", "The Matrix", 1999),
        ("Heat (1995)", "Heat", 1995),
        ("Great Day in Harlem, A (1994)", "A Great Day in Harlem", 1994),
        ("Misérables, Les (1995)", "Les Misérables", 1995),
        (
            "City of Lost Children, The (Cité des enfants perdus, La) (1995)",
            "The City of Lost Children",
            1995,
        ),
        ("Babylon 5", "Babylon 5", None),
        ("Stranger Things (2016-)", "Stranger Things", 2016),
        ("Hatari! (1962)", "Hatari!", 1962),
    ],
)
def test_titles_are_stored_the_way_people_say_them(raw: str, title: str, year: int | None) -> None:
    assert display_title(raw) == (title, year)


@pytest.mark.parametrize(
    ("raw", "title", "aliases"),
    [
        ("Seven (a.k.a. Se7en) (1995)", "Seven", ["Se7en"]),
        (
            "Amelie (Fabuleux destin d'Amélie Poulain, Le) (2001)",
            "Amélie",
            ["Le Fabuleux destin d'Amélie Poulain"],
        ),
        (
            "Léon: The Professional (a.k.a. The Professional) (Léon) (1994)",
            "Léon: The Professional",
            ["The Professional", "Léon"],
        ),
        ("Twelve Monkeys (a.k.a. 12 Monkeys) (1995)", "Twelve Monkeys", ["12 Monkeys"]),
        ("Dumb & Dumber (Dumb and Dumber) (1994)", "Dumb & Dumber", ["Dumb and Dumber"]),
        ("Ghost in the Shell (Kôkaku kidôtai) (1995)", "Ghost in the Shell", ["Kôkaku kidôtai"]),
        ("Postman, The (Postino, Il) (1994)", "The Postman", ["Il Postino"]),
        ("Boot, Das (Boat, The) (1981)", "Das Boot", ["The Boat"]),
        # "aka" and "a.k.a" without the last dot are MovieLens spellings too
        (
            "European Vacation (aka National Lampoon's European Vacation) (1985)",
            "European Vacation",
            ["National Lampoon's European Vacation"],
        ),
        (
            "Asterix in America (a.k.a Asterix Conquers America) (Astérix et les Indiens) (1994)",
            "Asterix in America",
            ["Asterix Conquers America", "Astérix et les Indiens"],
        ),
        # several groups, one of them another movie's title
        (
            "Godzilla 1985: The Legend Is Reborn (Gojira) (Godzilla) (Return of Godzilla, The)"
            " (1984)",
            "Godzilla 1985: The Legend Is Reborn",
            ["Gojira", "Godzilla", "The Return of Godzilla"],
        ),
        # an article MovieLens moved in a lowercase original title
        (
            "Beat That My Heart Skipped, The (battre mon coeur s'est arrêté, De) (2005)",
            "The Beat That My Heart Skipped",
            ["De battre mon coeur s'est arrêté"],
        ),
        # parentheses that belong to the title stay
        ("(500) Days of Summer (2009)", "(500) Days of Summer", []),
        ("Frontière(s) (2007)", "Frontière(s)", []),
        (
            "Evangelion: 1.0 You Are (Not) Alone (Evangerion shin gekijôban: Jo) (2007)",
            "Evangelion: 1.0 You Are (Not) Alone",
            ["Evangerion shin gekijôban: Jo"],
        ),
        (
            "Hommage à Zgougou (et salut à Sabine Mamou) (2002)",
            "Hommage à Zgougou (et salut à Sabine Mamou)",
            [],
        ),
        # double space before the group; a spelling that differs by accents only is one name
        (
            "Dark Portals: The Chronicles of Vidocq  (Vidocq) (2001)",
            "Dark Portals: The Chronicles of Vidocq",
            ["Vidocq"],
        ),
        ("Rashomon (Rashômon) (1950)", "Rashomon", []),
        # accents come back only from a longer original title, and not a long-vowel circumflex
        ("Sanjuro (Tsubaki Sanjûrô) (1962)", "Sanjuro", ["Tsubaki Sanjûrô"]),
        (
            "Zero de conduite (Zero for Conduct) (Zéro de conduite: Jeunes diables au collège)"
            " (1933)",
            "Zéro de conduite",
            ["Zero for Conduct", "Zéro de conduite: Jeunes diables au collège"],
        ),
    ],
)
def test_other_names_become_aliases(raw: str, title: str, aliases: list[str]) -> None:
    split = split_title(raw)
    assert (split.title, list(split.aliases)) == (title, aliases)


def test_the_main_title_is_kept_as_movielens_writes_it() -> None:
    split = split_title("Amelie (Fabuleux destin d'Amélie Poulain, Le) (2001)")
    assert (split.main, split.title, split.year) == ("Amelie", "Amélie", 2001)


def test_alias_rows_have_one_row_per_lookup_key() -> None:
    split = split_title("8 ½ Women (a.k.a. 8 1/2 Women) (a.k.a. Eight and a Half Women) (1999)")
    assert alias_rows(split) == [
        {"title": "Eight and a Half Women", "titleNorm": "eight and a half women"}
    ]


def test_every_real_title_splits_into_a_title_and_distinct_aliases(ml_small: Path) -> None:
    with (ml_small / "movies.csv").open(encoding="utf-8", newline="") as handle:
        raws = [row["title"] for row in csv.DictReader(handle)]
    splits = [split_title(raw) for raw in raws]
    assert all(s.title and "a.k.a" not in s.title for s in splits)
    assert all(not a.lower().startswith(("a.k.a", "aka ")) for s in splits for a in s.aliases)
    assert all(len(set(s.aliases)) == len(s.aliases) for s in splits)
    with_aliases = sum(bool(s.aliases) for s in splits)
    assert 1000 <= with_aliases <= 1100  # 1,071 in the count, less same-name spellings
