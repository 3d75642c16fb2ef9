"""Strict tool inputs: a rating is a JSON number from 0.5 to 5 in half steps, and no built-in tool
takes an argument it does not define (each refusal is a sentence naming the argument)."""

from __future__ import annotations

from typing import Any

import pytest

from semantic_layer.errors import ToolArgumentsError
from semantic_layer.tools import build_tools

TOOLS = {t.name: t for t in build_tools()}
MEMORY = TOOLS["memory"]


@pytest.mark.parametrize(
    ("rating", "words"),
    [
        (True, "not the true/false"),
        (False, "not the true/false"),
        ("4", "not the str '4'"),
        ("4.5", "not the str '4.5'"),
        (4.3, "multiple of 0.5"),
        (0, "greater than or equal to 0.5"),
        (5.5, "less than or equal to 5"),
    ],
)
def test_a_rating_that_is_not_a_half_star_number_is_refused(rating: Any, words: str) -> None:
    with pytest.raises(ToolArgumentsError, match="rating") as caught:
        MEMORY.parse({"movie": "Heat", "rating": rating})
    assert words in str(caught.value)


@pytest.mark.parametrize("arguments", [{"movie": "Heat"}, {"movie": "Heat", "rating": None}])
def test_a_write_without_a_rating_is_refused(arguments: dict[str, Any]) -> None:
    with pytest.raises(ToolArgumentsError, match="rating"):
        MEMORY.parse(arguments)  # reading a rating is my_rating
    assert "rating" in MEMORY.required_fields


@pytest.mark.parametrize("rating", [4, 4.5, 0.5, 5, 1.0])
def test_json_numbers_in_half_steps_are_ratings(rating: float) -> None:
    assert MEMORY.parse({"movie": "Heat", "rating": rating}).rating == rating
    assert MEMORY.parse(f'{{"movie": "Heat", "rating": {rating}}}').rating == rating  # the agent's


@pytest.mark.parametrize(
    ("name", "arguments"),
    [
        ("memory", {"movie": "Heat", "rating": 4}),
        ("film_facts", {"entity": "Heat"}),
        ("recommender", {"genre": "Comedy"}),
        ("smalltalk", {"query": "hi"}),
    ],
)
def test_an_argument_a_built_in_tool_does_not_define_is_refused(
    name: str, arguments: dict[str, Any]
) -> None:
    TOOLS[name].parse(arguments)  # what it defines is fine
    with pytest.raises(ToolArgumentsError, match="userId: Extra inputs are not permitted"):
        TOOLS[name].parse({**arguments, "userId": 42})
    assert TOOLS[name].input_schema.get("additionalProperties") is False


def test_the_rating_schema_says_its_bounds_in_json_schema_words() -> None:
    rating = MEMORY.input_schema["properties"]["rating"]
    assert (rating["minimum"], rating["maximum"], rating["multipleOf"]) == (0.5, 5, 0.5)
    assert rating["type"] == "number"
