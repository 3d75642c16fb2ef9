"""Each built-in tool's payload on the real test graph, and the Observation the model reads."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from agent.observation import fit_observation
from semantic_layer.session import Session
from semantic_layer.tools import build_tools

GOLDEN = Path(__file__).with_name("observations.json")

# (tool, arguments, session user: None for a guest on a writable copy)
CALLS: list[tuple[str, dict[str, Any], int | None]] = [
    ("information", {"entity": "Heat"}, 1),
    ("information", {"entity": "Amelie"}, 1),
    ("information", {"entity": "Michael Mann", "entity_type": "person"}, 1),
    ("recommender", {"movie": "Heat"}, 1),
    ("recommender", {"movie": "matrix", "genre": "Comedy"}, 1),
    ("recommender", {"genre": "Comedy"}, 1),
    ("recommender", {}, 1),
    ("smalltalk", {"query": "hi"}, 1),
    ("memory", {"movie": "Heat", "rating": 4.5}, None),
    ("information", {"entity": "Casino Royale"}, 1),
    ("top_movies_by_director", {"director": "Christopher Nolan"}, 1),
]


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
    tools = {t.name: t for t in build_tools(graph, session)}
    return tools[tool].invoke(arguments)


@pytest.fixture(scope="module")
def golden() -> dict[str, dict[str, str]]:
    """The Observations as the tools wrote them when their data was plain dicts."""
    return json.loads(GOLDEN.read_text(encoding="utf-8"))


@pytest.mark.parametrize(("tool", "arguments", "user"), CALLS, ids=lambda v: str(v))
def test_the_observation_the_model_reads_is_unchanged(
    request: pytest.FixtureRequest,
    golden: dict[str, dict[str, str]],
    tool: str,
    arguments: dict[str, Any],
    user: int | None,
) -> None:
    result = _call(request, tool, arguments, user)
    expected = golden[_key(tool, arguments)]
    assert result.observation() == expected["observation"]
    assert fit_observation(result) == expected["fitted"]
