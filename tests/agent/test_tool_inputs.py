"""The user is bound by the application: no tool the model can call takes a user id."""

from __future__ import annotations

import re
from typing import Any

import pytest
from pydantic import BaseModel, Field

from agent.grammar import step_schema
from semantic_layer.tools import Tool, build_tools
from tests.agent.fakes import ScriptedTool

USERISH = re.compile(r"user|uid", re.IGNORECASE)


def property_names(schema: Any) -> set[str]:
    """Every property name anywhere in a JSON schema (nested objects, $defs, anyOf...)."""
    names: set[str] = set()
    if isinstance(schema, dict):
        for key, value in schema.items():
            if key == "properties" and isinstance(value, dict):
                names |= set(value)
            names |= property_names(value)
    elif isinstance(schema, list):
        for item in schema:
            names |= property_names(item)
    return names


def user_fields(tools: list[Tool[Any]]) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for tool in tools:
        names = property_names(tool.input_schema) | set(tool.input_model.model_fields)
        hits = {n for n in names if USERISH.search(n)}
        if hits:
            found[tool.name] = hits
    return found


@pytest.fixture(scope="module")
def real_tools() -> list[Tool[Any]]:
    return build_tools()


def test_no_tool_input_names_a_user(real_tools: list[Tool[Any]]) -> None:
    names = {t.name for t in real_tools}
    assert {"recommender", "film_facts", "memory", "smalltalk"} <= names
    assert len(names) > 4  # the declared tools from cypher/tools/ are checked too
    assert user_fields(real_tools) == {}


def test_the_grammar_admits_no_user_either(real_tools: list[Tool[Any]]) -> None:
    schema = step_schema(real_tools)
    assert not {n for n in property_names(schema) if USERISH.search(n)}


def test_the_check_finds_a_user_field() -> None:
    class Sneaky(BaseModel):
        movie: str
        user_id: int = Field(description="whose rating")

    tool = ScriptedTool(name="sneaky", description="Stores for anyone.", input_model=Sneaky)
    assert user_fields([tool]) == {"sneaky": {"user_id"}}
