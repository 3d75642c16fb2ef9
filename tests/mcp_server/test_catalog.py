"""Each tool's output schema names its typed payload, and real results validate against it."""

from __future__ import annotations

import json
from typing import Any

import jsonschema
import pytest

from mcp_server.catalog import call_result, definition
from semantic_layer.session import Session
from tests.semantic_layer.bound import BoundTool, bound_tools

CALLS = [
    ("film_facts", {"entity": "Heat"}, "MovieCard"),
    ("film_facts", {"entity": "Michael Mann", "entity_type": "person"}, "PersonCard"),
    ("film_facts", {"entity": "Casino Royale"}, None),  # candidates: no data
    ("recommender", {"genres": ["Comedy"]}, "Recommendations"),
    ("smalltalk", {}, "SmalltalkReply"),
    ("most_tagged", {"tag": "PIXAR"}, "Rows"),
]


@pytest.fixture(scope="module")
def tools(movie_graph: Any) -> dict[str, BoundTool]:
    return bound_tools(movie_graph, Session(user_id=1))


@pytest.mark.parametrize(("name", "arguments", "payload"), CALLS)
def test_structured_content_validates_against_the_tools_output_schema(
    tools: dict[str, BoundTool], name: str, arguments: dict[str, Any], payload: str | None
) -> None:
    schema = definition(tools[name].tool).output_schema
    assert schema is not None
    content = call_result(tools[name].invoke(arguments)).structured_content
    jsonschema.validate(content, schema)
    if payload is not None:
        assert payload in schema["$defs"]
        assert {"$ref": f"#/$defs/{payload}"} in schema["properties"]["data"]["anyOf"]


def test_a_payload_of_another_tool_is_refused(tools: dict[str, BoundTool]) -> None:
    recommendations = call_result(tools["recommender"].invoke({"genres": ["Comedy"]}))
    content = recommendations.structured_content
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(content, definition(tools["film_facts"].tool).output_schema)


def test_the_text_content_holds_the_same_json_without_the_queries(
    tools: dict[str, BoundTool],
) -> None:
    result = tools["film_facts"].invoke({"entity": "Heat"})
    assert result.queries  # the tool did trace them
    called = call_result(result)
    sentence, as_json = (block.text for block in called.content)  # type: ignore[union-attr]
    assert sentence.startswith("Heat (1995)")
    assert json.loads(as_json) == called.structured_content
    assert called.structured_content is not None
    assert called.structured_content["data"]["title"] == "Heat"
    assert "queries" not in called.structured_content and "MATCH" not in as_json
    assert ", " not in as_json.replace('", "', "")  # compact: no padding between items
    shown = call_result(result, show_queries=True).structured_content
    assert shown is not None and shown["queries"][0]["cypher"]
