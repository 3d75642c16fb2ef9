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
        resolve_movie(tools_graph, "Solaris")  # rated 11 and 20 times: neither stands out
    assert sorted((c.title, c.year) for c in caught.value.candidates) == [
        ("Solaris", 1972),
        ("Solaris", 2002),
    ]
    assert "1972" in str(caught.value) and "2002" in str(caught.value)


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


@pytest.mark.parametrize("typed", ["Der Pate", "O Rei Leão", "sourdough bread"])
def test_titles_alike_only_letter_by_letter_are_not_offered(tools_graph: Any, typed: str) -> None:
    """Other languages' titles and other things share letters with titles ("pate" and "pale
    rider", "leao" and "take the lead"): that is not a misspelling, so nothing is offered."""
    with pytest.raises(EntityNotFoundError, match="No movie called"):
        resolve_movie(tools_graph, typed)


def test_a_misspelling_offers_the_titles_holding_its_words(tools_graph: Any) -> None:
    with pytest.raises(AmbiguousEntityError) as caught:
        resolve_movie(tools_graph, "Harry Poter")
    titles = [c.title for c in caught.value.candidates]
    assert titles and all(t.startswith("Harry Potter") for t in titles)


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


# -- every name a movie is known by (issue 12) -------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "movie_id", "title"),
    [
        ("Seven", 47, "Seven"),
        ("Se7en", 47, "Seven"),
        ("Amelie", 4973, "Amélie"),
        ("Amélie", 4973, "Amélie"),
        ("Le Fabuleux destin d'Amélie Poulain", 4973, "Amélie"),
        ("fabuleux destin d'amelie poulain", 4973, "Amélie"),
        ("Leon", 293, "Léon: The Professional"),
        ("Léon", 293, "Léon: The Professional"),
        ("Leon: The Professional", 293, "Léon: The Professional"),
        ("Dumb & Dumber", 231, "Dumb & Dumber"),
        ("Dumb and Dumber", 231, "Dumb & Dumber"),
        ("Twelve Monkeys", 32, "Twelve Monkeys"),
        ("12 Monkeys", 32, "Twelve Monkeys"),
        ("Il Postino", 58, "The Postman"),
        ("Das Boot", 1233, "Das Boot"),
        ("The Boat", 1233, "Das Boot"),
        ("Pans Labyrinth", 48394, "Pan's Labyrinth"),
        ("El laberinto del fauno", 48394, "Pan's Labyrinth"),
        ("Birdman", 112183, "Birdman: Or (The Unexpected Virtue of Ignorance)"),
    ],
)
def test_a_movie_is_found_by_any_of_its_names_without_a_fuzzy_step(
    tools_graph: Any, typed: str, movie_id: int, title: str
) -> None:
    movie = resolve_movie(tools_graph, typed)
    assert (movie.movie_id, movie.title) == (movie_id, title)
    assert movie.how in ("exact", "normalized")


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("The Postman", {(58, 1994), (1726, 1997)}),
        ("King Kong", {(2366, 1933), (2367, 1976), (41569, 2005)}),
        ("Planet of the Apes", {(2529, 1968), (4643, 2001)}),
    ],
)
def test_movies_sharing_a_name_no_one_of_them_stands_out_are_asked_about_with_years(
    tools_graph: Any, typed: str, expected: set[tuple[int, int]]
) -> None:
    with pytest.raises(AmbiguousEntityError) as caught:
        resolve_movie(tools_graph, typed)
    assert {(c.movie_id, c.year) for c in caught.value.candidates} == expected
    assert all(str(year) in str(caught.value) for _, year in expected)


@pytest.mark.parametrize(
    ("typed", "movie_id", "others"),
    [
        ("Gladiator", 3578, {"Gladiator (1992)"}),
        ("Ghost in the Shell", 741, {"Ghost in the Shell (2017)"}),
        ("Ocean's Eleven", 4963, {"Ocean's Eleven (1960)"}),
        ("The Professional", 293, {"The Professional (1981)"}),  # an alias meets a title
        ("Ring", 5679, {"The Ring (1927)", "Ringu (1998)"}),
    ],
)
def test_a_name_films_share_means_the_one_far_more_viewers_rated_and_names_the_others(
    tools_graph: Any, typed: str, movie_id: int, others: set[str]
) -> None:
    movie = resolve_movie(tools_graph, typed)
    assert (movie.movie_id, movie.how, set(movie.others)) == (movie_id, "best_known", others)


def test_a_write_asks_which_film_a_shared_name_means_even_when_one_is_best_known(
    tools_graph: Any,
) -> None:
    with pytest.raises(AmbiguousEntityError) as caught:
        resolve_movie(tools_graph, "Gladiator", best_known=False)
    assert {c.year for c in caught.value.candidates} == {1992, 2000}


def test_a_year_picks_one_of_the_movies_sharing_a_name(tools_graph: Any) -> None:
    assert resolve_movie(tools_graph, "Ghost in the Shell (2017)").movie_id == 168612
    assert resolve_movie(tools_graph, "The Postman 1994").title == "The Postman"


def test_a_short_name_one_letter_off_is_asked_about_not_taken(tools_graph: Any) -> None:
    """'Seve' (2014) is a movie too; a five-letter near miss is never taken silently."""
    assert resolve_movie(tools_graph, "Seven").movie_id == 47
    with pytest.raises((AmbiguousEntityError, EntityNotFoundError)):
        resolve_movie(tools_graph, "Sevem")


def test_information_shows_the_display_title_and_the_other_names(tools: dict[str, Any]) -> None:
    result = tools["film_facts"].invoke({"entity": "Amelie"})
    assert result.ok, result.message
    assert result.data.title == "Amélie" and result.data.year == 2001
    assert result.data.also_known_as == ["Le Fabuleux destin d'Amélie Poulain"]


@pytest.mark.parametrize(
    ("typed", "name"),
    [
        ("J.F. Lawton", "J. F. Lawton"),
        ("J. F. Lawton", "J. F. Lawton"),
        ("JF Lawton", "J. F. Lawton"),
        ("  Peter   Farrelly ", "Peter Farrelly"),
        ("Rene Clement", "René Clément"),
    ],
)
def test_people_are_found_through_spelling_variants(
    tools_graph: Any, typed: str, name: str
) -> None:
    assert resolve_person(tools_graph, typed).name == name


def test_a_person_spelled_two_ways_in_the_enriched_list_is_one_person(tools_graph: Any) -> None:
    movie = resolve_movie(tools_graph, "The Hunted (1995)")
    row = tools_graph.read("info/movie", {"movieId": movie.movie_id, "userId": 0})[0]
    assert row["directors"] == ["J. F. Lawton"]  # the first spelling met in the list
