"""Entity resolution on the real data: exact, normalized, fuzzy, ambiguous, and bad input."""

from __future__ import annotations

from typing import Any

import pytest

from semantic_layer.errors import AmbiguousEntityError, EntityNotFoundError, InvalidInputError
from semantic_layer.resolve import resolve_movie, resolve_person


@pytest.mark.parametrize("typed", ["matrix", "Matrix, The", "The Matrix (1999)", "THE MATRIX"])
def test_normalized_titles_find_the_matrix(tools_graph: Any, typed: str) -> None:
    movie = resolve_movie(tools_graph, typed)
    assert (movie.movie_id, movie.title, movie.year) == (2571, "The Matrix", 1999)


def test_an_exact_title_with_one_movie_needs_no_clarification(tools_graph: Any) -> None:
    movie = resolve_movie(tools_graph, "Casino")
    assert (movie.title, movie.year, movie.how) == ("Casino", 1995, "exact")


def test_two_movies_with_the_title_come_back_as_candidates_with_years(tools_graph: Any) -> None:
    with pytest.raises(AmbiguousEntityError) as caught:
        resolve_movie(tools_graph, "Casino Royale")
    assert sorted((c.title, c.year) for c in caught.value.candidates) == [
        ("Casino Royale", 1967),
        ("Casino Royale", 2006),
    ]
    assert "1967" in str(caught.value) and "2006" in str(caught.value)


def test_a_year_picks_one_of_the_same_titles(tools_graph: Any) -> None:
    assert resolve_movie(tools_graph, "Casino Royale (2006)").movie_id == 49272
    assert resolve_movie(tools_graph, "Heat 1995").title == "Heat"


def test_toy_story_is_only_toy_story(tools_graph: Any) -> None:
    movie = resolve_movie(tools_graph, "Toy Story")
    assert (movie.movie_id, movie.how) == (1, "exact")


@pytest.mark.parametrize(
    ("typed", "title"),
    [("Forest Gump", "Forrest Gump"), ("Shawshank", "The Shawshank Redemption")],
)
def test_misspelled_or_partial_titles_are_found_and_marked_fuzzy(
    tools_graph: Any, typed: str, title: str
) -> None:
    movie = resolve_movie(tools_graph, typed)
    assert (movie.title, movie.how) == (title, "fuzzy")


@pytest.mark.parametrize(
    ("typed", "name"),
    [
        ("Tom Hanks", "Tom Hanks"),
        ("tom hanks", "Tom Hanks"),
        ("Stephen Spielberg", "Steven Spielberg"),
        ("Tarantino", "Quentin Tarantino"),
    ],
)
def test_people(tools_graph: Any, typed: str, name: str) -> None:
    assert resolve_person(tools_graph, typed).name == name


def test_two_people_with_the_surname_are_candidates(tools_graph: Any) -> None:
    with pytest.raises(AmbiguousEntityError) as caught:
        resolve_person(tools_graph, "Wachowski")
    assert {c.name for c in caught.value.candidates} == {"Lana Wachowski", "Lilly Wachowski"}


@pytest.mark.parametrize("typed", ["", "   ", "***", "?!.", "a" * 500, None])
def test_unusable_input_gets_a_clear_message(tools_graph: Any, typed: str | None) -> None:
    with pytest.raises(InvalidInputError) as caught:
        resolve_movie(tools_graph, typed)
    assert "movie title" in str(caught.value)


def test_an_unknown_title_says_so(tools_graph: Any) -> None:
    with pytest.raises(EntityNotFoundError, match="No movie called"):
        resolve_movie(tools_graph, "Qwxzv Plorgh")


@pytest.mark.parametrize(
    "typed",
    [
        "Matrix'}) MATCH (n) DETACH DELETE n //",
        'Heat" OR 1=1 --',
        "title:(matrix) AND year:[1990 TO 2000]",
        "%matrix%|@title:*",
        "~!@#$%^&*()[]{}\\/\"'",
        "matrix~2 AND -heat",
    ],
)
def test_query_syntax_in_titles_is_only_text(tools_graph: Any, typed: str) -> None:
    try:
        resolve_movie(tools_graph, typed)
    except (AmbiguousEntityError, EntityNotFoundError, InvalidInputError) as e:
        assert str(e)
