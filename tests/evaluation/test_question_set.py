"""The shipped question set stays true to the data: every fact is checked against the real CSVs.

Each question's `verify` claims are checked against ml-latest-small (titles, years, genres) and
the enriched list (directors, cast), and every expected fact must be backed by one of them, so a
fact can be neither wrong nor unverified. Coverage of the issue's categories is checked too.
"""

from __future__ import annotations

import csv
import importlib
from collections import Counter
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from evaluation.normalize import contains_fact, fold, normalize_name
from evaluation.questions import DEFAULT_SET, Question, load_questions

SET = DEFAULT_SET
TOOLS = {"recommender", "film_facts", "memory", "my_rating", "smalltalk"}


@pytest.fixture(scope="module")
def questions() -> list[Question]:
    return load_questions(SET).questions


@pytest.fixture(scope="module")
def data(ml_small: Path, enriched_csv: Path) -> dict[str, Any]:
    return _data(ml_small, enriched_csv)


@cache
def _data(ml_small: Path, enriched_csv: Path) -> dict[str, Any]:
    with (ml_small / "movies.csv").open(encoding="utf-8", newline="") as f:
        movies = {int(r["movieId"]): r for r in csv.DictReader(f)}
    with enriched_csv.open(encoding="utf-8", newline="") as f:
        enriched = {int(r["movieId"]): r for r in csv.DictReader(f)}
    return {"movies": movies, "enriched": enriched}


def test_set_covers_the_issue(questions: list[Question]) -> None:
    assert len(questions) >= 80
    categories = Counter(q.category for q in questions)
    for category in (
        "info_movie",
        "info_person",
        "recommend",
        "memory",
        "personal",
        "followup",
        "ambiguous",
        "misspelling",
        "offtopic",
        "multilingual",
    ):
        assert categories[category] >= 5, category
    assert {"es", "zh", "ja"} <= {q.language for q in questions}
    expected = {t for q in questions for t in q.expect.tool if t}
    assert expected == TOOLS
    assert all(q.history for q in questions if q.category == "followup")
    assert all(q.ratings for q in questions if q.category == "personal")


def test_every_fact_is_backed_by_a_claim(questions: list[Question]) -> None:
    for q in questions:
        values = {fold(str(v)) for claim in q.verify for k, v in claim.items() if k != "movie"}
        for fact in q.expect.facts:
            assert fold(fact) in values, f"{q.id}: fact {fact!r} has no verify claim"


def test_claims_are_true_in_the_data(questions: list[Question], data: dict[str, Any]) -> None:
    problems = [
        f"{q.id}: {claim}" for q in questions for claim in q.verify if not _holds(claim, data)
    ]
    assert not problems, "claims not true in the data:\n" + "\n".join(problems)


def test_genre_arguments_are_graph_genres(questions: list[Question], data: dict[str, Any]) -> None:
    genres = {g for r in data["movies"].values() for g in r["genres"].split("|")}
    for q in questions:
        value = q.expect.args.get("genre")
        for option in value if isinstance(value, list) else [value]:
            assert option is None or option in genres, f"{q.id}: {option}"


def test_ratings_and_expected_titles_name_real_movies(
    questions: list[Question], data: dict[str, Any]
) -> None:
    """A rating stored before a question, and a correctly spelled expected title, must exist."""
    keys = set()
    for row in data["movies"].values():
        keys |= _title_keys(row["title"])
    for q in questions:
        for rating in q.ratings:
            assert normalize_name(rating.movie) in keys, f"{q.id}: {rating.movie}"
        if (
            q.category in {"misspelling", "ambiguous"}
            or q.expect.args.get("entity_type") == "person"
        ):
            continue
        for key in ("movie", "entity"):
            value = q.expect.args.get(key)
            options = value if isinstance(value, list) else [value]
            if value is not None:
                assert any(normalize_name(str(o)) in keys for o in options), f"{q.id}: {value}"


def test_expected_tools_exist(movie_graph: Any) -> None:
    """The set's tool names and argument names are the semantic layer's."""
    try:
        build_tools = importlib.import_module("semantic_layer.tools").build_tools
    except (ImportError, AttributeError):
        pytest.skip("semantic_layer.tools.build_tools is not available yet")
    tools = {t.name.casefold(): t for t in build_tools()}
    names = set(tools)
    assert {t.casefold() for t in TOOLS} <= names
    for q in load_questions(SET).questions:
        for tool, args in q.expect.accepted():
            if tool is not None:
                assert set(args) <= set(tools[tool].input_model.model_fields), q.id


def test_also_tools_return_the_facts(movie_graph: Any) -> None:
    """A question accepts another tool (`also`) only where that tool's result holds its facts."""
    from semantic_layer.session import Session
    from semantic_layer.tools import ToolContext, build_tools

    tools = {t.name: t for t in build_tools()}
    context = ToolContext(movie_graph, Session())
    checked = 0
    for q in load_questions(SET).questions:
        for alternative in q.expect.also:
            args = {k: v[0] if isinstance(v, list) else v for k, v in alternative.args.items()}
            result = tools[alternative.tool].run(args, context)
            text = result.model_dump_json()
            for fact in q.expect.facts:
                assert contains_fact(text, fact), f"{q.id}: {alternative.tool} lacks {fact!r}"
            checked += 1
    assert checked


def _holds(claim: dict[str, Any], data: dict[str, Any]) -> bool:
    movies, enriched = data["movies"], data["enriched"]
    if "title_count" in claim:
        key = normalize_name(claim["title_count"])
        count = sum(key in _title_keys(r["title"]) for r in movies.values())
        return bool(count >= claim["at_least"])
    if "person" in claim:
        movie_id = claim.get("directed", claim.get("acted_in"))
        column = "director" if "directed" in claim else "actors"
        row = enriched.get(movie_id)
        return movie_id in movies and row is not None and claim["person"] in _people(row[column])
    movie_id = claim["movie"]
    if movie_id not in movies:
        return False
    title = movies[movie_id]["title"]
    if "title" in claim:
        return normalize_name(claim["title"]) in _title_keys(title)
    if "year" in claim:
        return title.rstrip().endswith(f"({claim['year']})")
    if "genre" in claim:
        return bool(claim["genre"] in movies[movie_id]["genres"].split("|"))
    row = enriched.get(movie_id)
    if row is None:
        return False
    if "director" in claim:
        return claim["director"] in _people(row["director"])
    if "actor" in claim:
        return claim["actor"] in _people(row["actors"])
    raise AssertionError(f"unknown claim {claim}")


def _title_keys(title: str) -> set[str]:
    """'Spirited Away (Sen to Chihiro no kamikakushi) (2001)' -> the full and the short key."""
    return {normalize_name(title), normalize_name(title.split(" (")[0])}


def _people(cell: str) -> set[str]:
    return {name.strip() for name in cell.split("|") if name.strip()}


@pytest.mark.parametrize("path", sorted(SET.parent.glob("*.yaml")), ids=lambda p: p.name)
def test_every_shipped_set_loads_and_names_real_tools_and_arguments(path: Path) -> None:
    """The held-out sets beside the shipped one are read by `movieagent eval --set`: each loads,
    and its expected tools and argument names are the semantic layer's."""
    from semantic_layer.tools import build_tools

    tools = {t.name: t for t in build_tools()}
    loaded = load_questions(path).questions
    assert loaded
    for q in loaded:
        for tool, args in q.expect.accepted():
            if tool is not None:
                assert tool in tools, f"{path.name} {q.id}: {tool}"
                assert set(args) <= set(tools[tool].input_model.model_fields), q.id
