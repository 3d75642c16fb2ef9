"""Completion of titles, names and genres from the real graph's indexes."""

from __future__ import annotations

from typing import Any

from semantic_layer.linking.complete import complete


def test_a_title_completes_from_its_start_the_most_rated_first(movie_graph: Any) -> None:
    found = complete(movie_graph, "movie", "the matr", limit=5)
    assert found[0] == "The Matrix (1999)"
    assert all("(" in label for label in found)  # "Title (year)", as the tools take it
    assert len(found) <= 5


def test_a_misspelt_or_inner_word_completes_through_the_full_text_index(movie_graph: Any) -> None:
    assert any("Matrix" in label for label in complete(movie_graph, "movie", "matrx"))
    assert complete(movie_graph, "person", "hanks")[0] == "Tom Hanks"  # before "Hawks"


def test_a_name_completes_from_its_start(movie_graph: Any) -> None:
    assert complete(movie_graph, "person", "michael ma")[:1] == ["Michael Mann"]


def test_genres_come_from_the_vocabulary() -> None:
    assert complete(None, "genre", "sc") == ["Sci-Fi"]
    assert complete(None, "genre", "")[:2] == ["Action", "Adventure"]
    assert complete(None, "genre", "co", limit=1) == ["Comedy"]


def test_nothing_typed_or_nothing_found_is_an_empty_list(movie_graph: Any) -> None:
    assert complete(movie_graph, "movie", "  ") == []
    assert complete(movie_graph, "person", "zzqxw") == []
