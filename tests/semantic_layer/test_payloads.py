"""Each built-in tool's payload on the real test graph, and the Observation the model reads."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

from agent.observation import fit_observation
from semantic_layer.session import Session
from semantic_layer.tools import ToolResult
from semantic_layer.tools.payloads import (
    MovieCard,
    PersonCard,
    Recommendations,
    Rows,
    SmalltalkReply,
    StoredRating,
)
from tests.semantic_layer.bound import bound_tools

GOLDEN = Path(__file__).with_name("observations.json")

# (tool, arguments, session user: None for a guest on a writable copy, the payload's model)
CALLS: list[tuple[str, dict[str, Any], int | None, type[BaseModel] | None]] = [
    ("film_facts", {"entity": "Heat"}, 1, MovieCard),
    ("film_facts", {"entity": "Amelie"}, 1, MovieCard),
    ("film_facts", {"entity": "Michael Mann", "entity_type": "person"}, 1, PersonCard),
    ("recommender", {"movies": ["Heat"]}, 1, Recommendations),
    ("recommender", {"movies": ["matrix"], "genres": ["Comedy"]}, 1, Recommendations),
    ("recommender", {"genres": ["Comedy"]}, 1, Recommendations),
    ("recommender", {}, 1, Recommendations),
    (
        "recommender",
        {"people": ["Al Pacino"], "year_from": 1990, "year_to": 1999},
        1,
        Recommendations,
    ),
    (
        "recommender",
        {"genres": ["Film-Noir"], "year_from": 2000, "year_to": 2001},
        1,
        Recommendations,
    ),
    ("smalltalk", {"query": "hi"}, 1, SmalltalkReply),
    ("memory", {"movie": "Heat", "rating": 4.5}, None, StoredRating),
    ("film_facts", {"entity": "Solaris"}, 1, None),
    ("top_movies_by_director", {"director": "Christopher Nolan"}, 1, Rows),
]


def _id(value: Any) -> str:
    return value.__name__ if isinstance(value, type) else str(value)


def _key(tool: str, arguments: dict[str, Any]) -> str:
    return f"{tool} {json.dumps(arguments, sort_keys=True)}"


def _call(
    request: pytest.FixtureRequest, tool: str, arguments: dict[str, Any], user: int | None
) -> Any:
    """The tool's result for `user`; a guest (None) rates on a private copy of the graph."""
    if user is None:
        graph, session = request.getfixturevalue("writable"), Session()
    else:
        graph, session = request.getfixturevalue("tools_graph"), Session(user_id=user)
    return bound_tools(graph, session)[tool].invoke(arguments)


@pytest.fixture(scope="module")
def golden() -> dict[str, dict[str, str]]:
    """The Observations as the tools wrote them when their data was plain dicts."""
    return json.loads(GOLDEN.read_text(encoding="utf-8"))


@pytest.mark.parametrize(("tool", "arguments", "user", "model"), CALLS, ids=_id)
def test_each_payload_is_typed_and_the_observation_is_unchanged(
    request: pytest.FixtureRequest,
    golden: dict[str, dict[str, str]],
    tool: str,
    arguments: dict[str, Any],
    user: int | None,
    model: type[BaseModel] | None,
) -> None:
    result = _call(request, tool, arguments, user)
    if model is None:
        assert result.data is None
    else:
        assert type(result.data) is model
        plain = result.plain_data()
        # the dumped keys validate back (to the data every reader gets: what a card keeps for
        # the model alone, such as a recommendation's brief reason, is not data)
        assert model.model_validate(plain).model_dump() == plain
        assert model.model_validate(json.loads(json.dumps(plain, default=str))).model_dump() == (
            plain
        )
    again = ToolResult.model_validate_json(result.model_dump_json())  # as MCP hands it over
    assert type(again.data) is type(result.data) and again.model_dump() == result.model_dump()
    expected = golden[_key(tool, arguments)]
    assert result.observation() == expected["observation"]
    assert fit_observation(result) == expected["fitted"]
