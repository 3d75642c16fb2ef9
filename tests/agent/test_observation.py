"""The Observation the model reads: compact, no identifiers, shortened to its token budget."""

from __future__ import annotations

import json

from agent.observation import estimate, fit_observation
from semantic_layer.tools.result import ToolResult
from tests.agent.fakes import casino_candidates


def test_identifiers_and_empty_values_are_left_out() -> None:
    result = ToolResult(
        tool="information",
        kind="movie",
        message="Heat (1995).",
        data={"movieId": 6, "imdbId": "0113277", "title": "Heat", "yourRating": None, "tags": []},
    )
    body = json.loads(fit_observation(result))
    assert body == {"ok": True, "message": "Heat (1995).", "data": {"title": "Heat"}}


def test_candidates_keep_their_labels() -> None:
    body = json.loads(fit_observation(casino_candidates()))
    assert body["ok"] is False
    assert body["candidates"] == [{"label": "Casino (1995)"}, {"label": "Casino Royale (2006)"}]


def test_the_longest_list_is_shortened_to_the_budget() -> None:
    recs = [
        {"title": f"Movie {i}", "year": 2000, "why": "liked by many viewers"} for i in range(60)
    ]
    result = ToolResult(
        tool="recommender",
        kind="recommendations",
        data={"basis": {"movie": "Heat (1995)"}, "recommendations": recs, "genres": ["Crime"]},
    )
    text = fit_observation(result, budget_tokens=200)
    assert estimate(text) <= 200
    body = json.loads(text)
    kept = body["data"]["recommendations"]
    assert kept[0]["title"] == "Movie 0" and 0 < len(kept) < 60
    assert body["omitted"] == {"recommendations": 60 - len(kept)}
    assert body["data"]["basis"] == {"movie": "Heat (1995)"}


def test_a_long_text_is_cut() -> None:
    result = ToolResult(tool="smalltalk", message="word " * 500)
    text = fit_observation(result, budget_tokens=50)
    assert estimate(text) <= 50 and text.endswith("…")
