"""The Observation the model reads: compact, no identifiers, shortened to its token budget."""

from __future__ import annotations

import json

from agent.observation import OBSERVATION_ROWS, estimate, fit_observation
from semantic_layer.tools.payloads import (
    Basis,
    Film,
    MovieCard,
    PersonCard,
    Recommendation,
    Recommendations,
)
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
    assert body == {"message": "Heat (1995).", "data": {"title": "Heat"}}  # ok unless it says


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
    assert kept[0]["movie"] == "Movie 0 (2000)" and 0 < len(kept) < 60
    assert body["omitted"] == {"recommendations": 60 - len(kept)}
    assert body["data"]["basis"] == {"movie": "Heat (1995)"}


def test_a_long_text_is_cut() -> None:
    result = ToolResult(tool="smalltalk", message="word " * 500)
    text = fit_observation(result, budget_tokens=50)
    assert estimate(text) <= 50 and text.endswith("…")


def test_a_film_is_read_as_its_label_and_a_long_filmography_as_its_best_rows() -> None:
    films = [Film(movie_id=i, title=f"Film {i}", year=1990 + i % 30) for i in range(40)]
    card = PersonCard(
        name="Someone", acted_in=films, acted_in_count=40, directed=films[:2], directed_count=2
    )
    result = ToolResult(tool="information", kind="person", data=card)
    body = json.loads(fit_observation(result, budget_tokens=10_000))
    acted = body["data"]["actedIn"]
    shown = PersonCard.rows_for_the_model
    assert shown is not None and shown < OBSERVATION_ROWS
    assert acted == [f"Film {i} ({1990 + i})" for i in range(shown)]
    assert body["data"]["directed"] == ["Film 0 (1990)", "Film 1 (1991)"]
    assert body["omitted"] == {"actedIn": 40 - shown}
    # the counts are the message's to say (the tool writes them there); the UI keeps them
    assert "actedInCount" not in body["data"] and "directedCount" not in body["data"]
    assert result.plain_data()["actedInCount"] == 40


def test_a_recommendation_is_read_as_its_label_and_its_reason() -> None:
    rec = Recommendation(
        movie_id=16, title="Casino", year=1995, genres=["Crime"], rating_avg=3.93,
        rating_count=82, why="liked by 30 viewers who liked Heat (1995)",
    )  # fmt: skip
    result = ToolResult(
        tool="recommender",
        kind="recommendations",
        data=Recommendations(basis=Basis(movie="Heat (1995)"), recommendations=[rec]),
    )
    row = json.loads(fit_observation(result))["data"]["recommendations"][0]
    assert row == {"movie": "Casino (1995)", "why": "liked by 30 viewers who liked Heat (1995)"}
    kept = result.plain_data()["recommendations"][0]  # the UI and MCP keep the rest
    assert (kept["genres"], kept["ratingAvg"], kept["ratingCount"]) == (["Crime"], 3.93, 82)


def test_a_row_is_read_without_what_the_message_says_of_every_row() -> None:
    rec = Recommendation(
        movie_id=16, title="Casino", year=1995, why="liked by 30 viewers who liked Heat (1995)"
    ).briefly("liked by 30 viewers")
    basis = Basis(movie="Heat (1995)", genres=["Crime"], note="took 'heet' to mean Heat (1995)")
    result = ToolResult(
        tool="recommender",
        kind="recommendations",
        message="10 movies like Heat (1995) (Crime).",
        data=Recommendations(basis=basis, recommendations=[rec]),
    )
    data = json.loads(fit_observation(result))["data"]
    assert data["recommendations"] == [{"movie": "Casino (1995)", "why": "liked by 30 viewers"}]
    assert data["basis"] == {"note": "took 'heet' to mean Heat (1995)"}  # the rest is the message
    kept = result.plain_data()  # the UI, MCP and the grounding check read the whole reason
    assert kept["recommendations"][0]["why"] == "liked by 30 viewers who liked Heat (1995)"
    assert kept["basis"]["genres"] == ["Crime"]


def test_the_model_reads_fewer_recommendations_than_rows_of_other_lists() -> None:
    recs = [
        Recommendation(movie_id=i, title=f"Film {i}", year=2000, why="rated 4/5") for i in range(10)
    ]
    result = ToolResult(
        tool="recommender",
        kind="recommendations",
        data=Recommendations(basis=Basis(genres=["Drama"]), recommendations=recs),
    )
    body = json.loads(fit_observation(result, budget_tokens=10_000))
    shown = Recommendations.rows_for_the_model
    assert shown is not None and shown < OBSERVATION_ROWS
    assert [r["movie"] for r in body["data"]["recommendations"]] == [
        f"Film {i} (2000)" for i in range(shown)
    ]
    assert body["omitted"] == {"recommendations": 10 - shown}


def test_one_row_over_the_budget_is_kept_and_the_text_cut() -> None:
    rows = [{"title": "A" * 400, "year": 2000}]
    result = ToolResult(tool="declared", kind="rows", data=rows)
    text = fit_observation(result, budget_tokens=60)
    assert estimate(text) <= 60 and text.endswith("…")
    assert '"data":["' + "A" * 20 in text


def card(**fields: object) -> MovieCard:
    return MovieCard(movie_id=6, title="Heat", year=1995, released="1995-12-15", **fields)  # type: ignore[arg-type]


def test_a_message_that_only_names_the_card_is_left_out_and_a_note_is_kept() -> None:
    heat = card(directors=["Michael Mann"])
    plain = ToolResult(tool="information", kind="movie", message="Heat (1995).", data=heat)
    body = json.loads(fit_observation(plain))
    assert body == {"data": {"movie": "Heat (1995)", "directors": ["Michael Mann"]}}
    noted = "Heat (1995) (taking 'heet' to mean Heat (1995))."
    fuzzy = ToolResult(tool="information", kind="movie", message=noted, data=heat)
    assert json.loads(fit_observation(fuzzy))["message"] == noted


def test_a_movie_card_gives_the_model_its_year_and_first_tags_and_the_ui_all_of_them() -> None:
    tags = ["heist", "los angeles", "police", "crime", "ensemble"]
    result = ToolResult(tool="information", kind="movie", data=card(tags=tags))
    data = json.loads(fit_observation(result, budget_tokens=10_000))["data"]
    assert data["tags"] == tags[:3] and "released" not in data
    assert "omitted" not in json.loads(fit_observation(result, budget_tokens=10_000))
    kept = result.plain_data()
    assert kept["tags"] == tags and kept["released"] == "1995-12-15"
