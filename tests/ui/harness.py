"""Scripted clients for the UI tests: a real graph, a scripted model, scripted tools.

`scripted_app.py` runs the real page (`ui.app.main`) with `services()`: the `Services` a test
put in `current`, or (in the browser test's own process) ones built by `browser_services()`.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

import streamlit as st

from agent.llm.base import LLM
from semantic_layer.graph import Graph
from semantic_layer.tools.memory import Memory
from semantic_layer.tools.payloads import Basis, MovieCard, Recommendation, Recommendations
from semantic_layer.tools.result import QueryTrace, ToolResult
from tests.agent.fakes import (
    ScriptedLLM,
    ScriptedTool,
    call,
    final,
    information,
    recommender,
)
from ui.services import Services

if TYPE_CHECKING:  # the page itself imports this module: no test client there
    from streamlit.testing.v1 import AppTest

current: Services | None = None


def services() -> Services:
    if current is not None:
        return current
    if "PYTEST_CURRENT_TEST" in os.environ:  # in a test's process the test sets `current`
        raise RuntimeError("the page ran in a test without harness.current set")
    return browser_services()


def scripted(graph: Graph, llm: LLM, tools: list[ScriptedTool]) -> Services:
    """Services over `graph`: the scripted `tools` plus the real Memory tool."""

    return Services(
        graph=graph,
        llm=llm,
        graph_label=graph.describe(),
        llm_label=llm.describe(),
        tools=[*tools, Memory()],
    )


def page_text(at: AppTest) -> str:
    """Everything the page wrote as text: markdown, captions, notices and the sidebar."""
    parts = [at.markdown, at.caption, at.success, at.error, at.sidebar.markdown]
    return "\n".join(str(e.value) for elements in parts for e in elements)


def heat_recommendations() -> ToolResult:
    cypher = "MATCH (m:Movie {movieId: $movieId})<-[r:RATED]-(u:User) ... RETURN rec"
    return ToolResult(
        tool="recommender",
        kind="recommendations",
        data=Recommendations(
            basis=Basis(movie="Heat (1995)", movie_id=6),
            recommendations=[
                Recommendation(
                    movie_id=4085,
                    title="Midnight Run",
                    year=1988,
                    genres=["Action", "Comedy", "Crime"],
                    rating_avg=3.9,
                    why="31 viewers liked both",
                ),
                Recommendation(
                    movie_id=2000,
                    title="Lethal Weapon",
                    year=1987,
                    genres=["Action", "Comedy", "Crime", "Drama"],
                    rating_avg=3.7,
                    why="27 viewers liked both",
                ),
            ],
        ),
        queries=[
            QueryTrace(
                name="tools/recommend_by_movie",
                cypher=cypher,
                params={"movieId": 6},
                rows=2,
                ms=4.2,
            )
        ],
    )


def casino_facts() -> ToolResult:
    return ToolResult(
        tool="information",
        kind="movie",
        data=MovieCard(
            movie_id=16,
            title="Casino",
            year=1995,
            genres=["Crime", "Drama"],
            directors=["Martin Scorsese"],
            cast=["Robert De Niro", "Sharon Stone", "Joe Pesci"],
            imdb_rating=8.2,
        ),
        queries=[QueryTrace(name="tools/movie_info", cypher="MATCH (m:Movie) RETURN m", rows=1)],
    )


HEAT_ANSWER = "Try Midnight Run (1988): 31 viewers who liked Heat liked it too."


@st.cache_resource
def browser_services() -> Services:
    """For the browser test's own process: a tiny real graph in MOVIEAGENT_DATA_DIR."""
    from semantic_layer.graph import connect
    from semantic_layer.settings import GraphSettings

    graph = connect(GraphSettings.from_env())
    movies: list[dict[str, Any]] = [
        {"movieId": 6, "title": "Heat", "year": 1995},
        {"movieId": 4085, "title": "Midnight Run", "year": 1988},
        {"movieId": 2571, "title": "The Matrix", "year": 1999},
    ]
    graph.write("import/movies", {"rows": movies})
    graph.write("import/users", {"rows": [1, 2]})
    llm = ScriptedLLM(
        call("recommender", movie="Heat"),
        final(HEAT_ANSWER),
        chunk=int(os.environ.get("SCRIPTED_CHUNK", "4")),
    )
    recs, info = recommender(), information()
    recs.results.append(heat_recommendations())
    return scripted(graph, llm, [recs, info])
