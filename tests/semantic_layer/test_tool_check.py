"""`Tool.check` on the real graph: a name read as the kind of thing the graph knows it as."""

from __future__ import annotations

from typing import Any

import pytest

from semantic_layer.errors import ToolArgumentsError
from semantic_layer.resolve.kind import Fit, fit
from semantic_layer.session import Session
from semantic_layer.tools import ToolContext, build_tools
from semantic_layer.tools.information import Information, InformationInput


@pytest.fixture
def context(movie_graph: Any) -> ToolContext:
    return ToolContext(movie_graph, Session(user_id=1))


def test_fit_tells_names_loose_matches_and_nothing(movie_graph: Any) -> None:
    assert fit(movie_graph, "Heat", "movie") == Fit.BY_NAME
    assert fit(movie_graph, "Casino Royale", "movie") == Fit.BY_NAME  # two of that name
    assert fit(movie_graph, "Michael Mann", "person") == Fit.BY_NAME
    assert fit(movie_graph, "Michael Mann", "movie") < Fit.BY_NAME
    assert fit(movie_graph, "Saving Private Ryan", "person") < Fit.BY_NAME


@pytest.mark.parametrize(
    ("entity", "given", "read_as"),
    [
        ("Denis Villeneuve", "movie", "person"),  # a director asked about as a movie
        ("Heat", "person", "movie"),  # a title asked about as a person
        ("Heat", "movie", "movie"),
        ("Michael Mann", "person", "person"),
        ("Chicago", "movie", "movie"),
        ("Casino", "movie", "movie"),  # ambiguous titles stay movies: the tool asks back
    ],
)
def test_information_reads_a_name_as_the_kind_the_graph_knows(
    context: ToolContext, entity: str, given: str, read_as: str
) -> None:
    checked = Information().check(InformationInput(entity=entity, entity_type=given), context)
    assert checked.entity_type == read_as and checked.entity == entity


def test_a_declared_person_parameter_must_name_a_person(context: ToolContext) -> None:
    together = next(t for t in build_tools() if t.name == "movies_together")
    fine = together.parse({"first_person": "Robert De Niro", "second_person": "Al Pacino"})
    assert together.check(fine, context) is fine
    wrong = together.parse({"first_person": "Saving Private Ryan", "second_person": "War"})
    with pytest.raises(ToolArgumentsError) as e:
        together.check(wrong, context)
    assert "'Saving Private Ryan' is not a person, it is a movie" in str(e.value)
    assert "second_person: 'War' is not a person" in str(e.value)


def test_without_a_graph_there_is_nothing_to_check() -> None:
    args = InformationInput(entity="Denis Villeneuve")
    assert Information().check(args, ToolContext()) is args


@pytest.mark.parametrize("entity", ["Western", "sci-fi", "Comedies"])
def test_a_genre_is_not_an_entity(entity: str) -> None:
    with pytest.raises(ToolArgumentsError, match="is a genre"):
        Information().check(InformationInput(entity=entity), ToolContext())
    dated = InformationInput(entity="Romance (1999)")  # the movie of that name, with its year
    assert Information().check(dated, ToolContext()) is dated
