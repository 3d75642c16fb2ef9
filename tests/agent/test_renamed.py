"""A name nothing in the graph is called ("Il Padrino"): the model is asked once, in a short
constrained reply, for the title the graph holds it under and its year, and the call runs
again with the film whose title and year agree with it; a reply that names no such film
leaves the result as it was."""

from __future__ import annotations

import json
from typing import Any

from agent import Agent
from agent.loop import RENAMED_SCHEMA
from semantic_layer.tools import build_tools
from semantic_layer.tools.contract import ToolContext
from tests.agent.fakes import ScriptedLLM, call, final

QUESTION = "Consigliami qualcosa come Il Padrino."


def _title(title: str, year: int | None = None) -> str:
    return json.dumps({"title": title} if year is None else {"title": title, "year": year})


def _ask(movie_graph: Any, *replies: str, question: str = QUESTION) -> tuple[Any, ScriptedLLM]:
    llm = ScriptedLLM(*replies)
    result = Agent(llm, build_tools()).ask(question, context=ToolContext(movie_graph))
    return result, llm


def test_a_title_in_another_language_is_asked_for_in_english_and_the_call_runs_again(
    movie_graph: Any,
) -> None:
    result, llm = _ask(
        movie_graph,
        call("recommender", movies=["Il Padrino"]),
        _title("The Godfather"),
        final("Se ti è piaciuto The Godfather (1972), prova The Godfather: Part II (1974)."),
    )
    first, second = result.steps
    assert first.result is not None and first.result.unmatched == "Il Padrino"
    assert second.input["movies"] == ["The Godfather"]
    assert second.result is not None and second.result.ok
    assert second.result.data.basis.movie == "The Godfather (1972)"
    asked = llm.requests[1]
    assert asked.json_schema == RENAMED_SCHEMA
    assert '"Il Padrino"' in asked.messages[-1].content
    assert asked.messages[-1].content.endswith('Reply as JSON: {"title": "...", "year": ...}.')
    assert len(result.llm_calls) == 3


def test_a_literal_translation_of_the_right_year_finds_the_film(movie_graph: Any) -> None:
    """ "Ritorno al futuro" recalled as "Return to the Future" (1985): the graph holds no film of
    that name, but its closest look-alike of that year is *Back to the Future*, which the call
    then reads."""
    result, _ = _ask(
        movie_graph,
        call("film_facts", entity="Ritorno al futuro", about=["year"], entity_type="movie"),
        _title("Return to the Future", 1985),
        final("Back to the Future è uscito nel 1985."),
        question="In che anno è uscito Ritorno al futuro?",
    )
    assert [s.input["entity"] for s in result.steps] == [
        "Ritorno al futuro",
        "Back to the Future (1985)",
    ]
    assert result.steps[1].result is not None and result.steps[1].result.ok
    assert result.steps[1].result.data.title == "Back to the Future"


def test_a_film_held_by_name_of_another_year_is_not_the_one_meant(movie_graph: Any) -> None:
    """ "Der weiße Hai" recalled as "White Heat" (1957): the graph's *White Heat* is of 1949, a
    guess that title and year do not agree on; the user is asked about the look-alikes of what
    they typed instead, and no film is answered about. The model asked for the title is not
    shown those look-alikes (it copied them, year and all)."""
    result, llm = _ask(
        movie_graph,
        call("film_facts", entity="Der weiße Hai", about=["directors"], entity_type="movie"),
        _title("White Heat", 1957),
        question="Wer hat Der weiße Hai gedreht?",
    )
    assert [s.input["entity"] for s in result.steps] == ["Der weiße Hai"]
    assert "White Heat" not in result.answer
    assert [c.title for c in result.candidates] == ["The White Ribbon"]
    assert "White Ribbon" not in llm.requests[1].messages[-1].content


def test_a_reply_the_graph_does_not_hold_by_name_leaves_the_result_as_it_was(
    movie_graph: Any,
) -> None:
    """The same name again, a made-up translation that is only a look-alike of a title
    ("The Silent Night" is not Silent Night, Deadly Night), or nothing: one call, and the
    answer's prompt reads the result without the question about the title."""
    for reply in (_title("Il Padrino"), _title("The Silent Night"), _title(""), "{}"):
        result, llm = _ask(
            movie_graph,
            call("recommender", movies=["Il Padrino"]),
            reply,
            final("Il Padrino non è nel grafo."),
        )
        assert [s.input["movies"] for s in result.steps] == [["Il Padrino"]], reply
        assert '{"title"' not in llm.requests[2].messages[-1].content, reply
        assert result.answer == "Il Padrino non è nel grafo."


def test_a_look_alike_already_offered_is_left_to_the_user_to_choose(movie_graph: Any) -> None:
    """The resolver's own guesses at a misspelling ("Lo squalo" -> White Squall) are asked of
    the user; the model naming one of them does not pick it."""
    result, _ = _ask(
        movie_graph,
        call("film_facts", entity="Lo squalo", about=["directors"], entity_type="movie"),
        _title("White Squall (1996)"),
        question="Chi ha diretto Lo squalo?",
    )
    assert len(result.steps) == 1
    assert [c.title for c in result.candidates] == ["White Squall"]
    assert "White Squall (1996)" in result.answer and result.answer.endswith("?")


def test_the_title_is_asked_for_once_a_question(movie_graph: Any) -> None:
    result, llm = _ask(
        movie_graph,
        call("recommender", movies=["Il Padrino"]),
        _title("Taxi Driverr Zwei"),
        call("recommender", movies=["Der Pate Zwei"]),
        final("Non lo trovo nel grafo."),
    )
    assert [s.input["movies"] for s in result.steps] == [["Il Padrino"], ["Der Pate Zwei"]]
    assert all(r.json_schema != RENAMED_SCHEMA for r in llm.requests[2:])


def test_a_rating_is_stored_only_for_the_name_the_user_wrote(writable_graph: Any) -> None:
    """A write tool's call is not run again on a title the model proposes: a wrong guess
    would store a rating nobody gave."""
    llm = ScriptedLLM(call("memory", movie="Il Padrino", rating=5), _title("The Godfather"))
    context = ToolContext(writable_graph).as_user(1)
    result = Agent(llm, build_tools()).ask("Metti 5 stelle a Il Padrino", context=context)
    assert [s.input["movie"] for s in result.steps] == ["Il Padrino"]
    assert all(r.json_schema != RENAMED_SCHEMA for r in llm.requests)
