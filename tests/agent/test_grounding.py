"""A tool call that names a movie or person nobody mentioned goes back to the model once."""

from __future__ import annotations

from agent import Agent, Correction
from agent.grounding import genre_mentioned, ungrounded_arguments
from tests.agent.fakes import ScriptedLLM, ScriptedTool, call, final


def test_names_from_the_question_or_history_pass_loosely() -> None:
    said = ["What has Steven Spielburg directed?", "Jaws (1975) was directed by him."]
    assert ungrounded_arguments({"entity": "Steven Spielberg"}, said) == {}
    assert ungrounded_arguments({"movie": "Jaws (1975)", "rating": 5}, said) == {}
    assert ungrounded_arguments({"entity": "Amélie"}, ["Films like amelie?"]) == {}
    assert ungrounded_arguments({"movie": "Up"}, ["Save a rating of 3 for Up."]) == {}
    assert (
        ungrounded_arguments({"entity": "Spirited Away"}, ["Spirited Away の監督は誰ですか"]) == {}
    )


def test_invented_names_are_caught_and_other_arguments_are_not_checked() -> None:
    said = ["What has Steven Spielberg directed?"]
    found = ungrounded_arguments(
        {"first_person": "Steven Spielberg", "second_person": "Michael Bay"}, said
    )
    assert found == {"second_person": "Michael Bay"}
    assert ungrounded_arguments({"movie": "The Shawshank Redemption"}, ["A romantic movie?"])
    assert ungrounded_arguments({"genre": "Drama", "query": "hello"}, ["hi"]) == {}
    assert ungrounded_arguments({"entity": "Heat", "entity_type": "person"}, ["Heat?"]) == {}


def test_an_invented_optional_movie_is_left_out(tools: list[ScriptedTool]) -> None:
    llm = ScriptedLLM(
        call("recommender", movie="The Shawshank Redemption", genre="Comedy"),
        final("Try Dr. Strangelove."),
    )
    result = Agent(llm, tools).ask("Recommend a comedy.")
    (ran,) = tools[0].calls
    assert ran["genre"] == "Comedy" and ran.get("movie") is None
    assert [s.input for s in result.steps] == [{"genre": "Comedy"}] and len(llm.requests) == 2


def test_an_invented_required_name_is_sent_back_before_the_tool_runs(
    tools: list[ScriptedTool],
) -> None:
    llm = ScriptedLLM(
        call("information", entity="Michael Bay", entity_type="person"),
        call("information", entity="Steven Spielberg", entity_type="person"),
        final("Jaws, among others."),
    )
    events = list(Agent(llm, tools).stream("What has Steven Spielberg directed?"))
    (correction,) = [e for e in events if isinstance(e, Correction)]
    assert correction.reason == "ungrounded" and "Michael Bay" in correction.observation
    assert [c["entity"] for c in tools[1].calls] == ["Steven Spielberg"]  # Bay never ran


def test_the_same_call_again_is_run(tools: list[ScriptedTool]) -> None:
    llm = ScriptedLLM(
        call("information", entity="The Godfather"),
        call("information", entity="The Godfather"),
        final("Francis Ford Coppola."),
    )
    result = Agent(llm, tools).ask("Qui a réalisé Le Parrain ?")  # translated by the model
    assert [s.input for s in result.steps] == [{"entity": "The Godfather"}]
    assert len(llm.requests) == 3


def test_a_genre_beside_a_movie_stays_only_when_the_user_asked_for_it() -> None:
    assert not genre_mentioned("Action", ["Recommend me something like Heat."])
    assert genre_mentioned("Comedy", ["Something like Pulp Fiction, but a comedy."])
    assert genre_mentioned("Horror", ["Empfiehl mir einen Horrorfilm."])
    assert genre_mentioned("Sci-Fi", ["推荐几部科幻电影。"])


def test_an_unasked_genre_is_left_out_of_a_movie_recommendation(
    tools: list[ScriptedTool],
) -> None:
    llm = ScriptedLLM(call("recommender", movie="Heat", genre="Drama"), final("Try Ronin."))
    result = Agent(llm, tools).ask("Something like Heat?")
    assert result.steps[0].input == {"movie": "Heat"}
    llm = ScriptedLLM(call("recommender", movie="Heat", genre="Comedy"), final("Try Ronin."))
    result = Agent(llm, tools).ask("Something like Heat, but a comedy?")
    assert result.steps[0].input == {"movie": "Heat", "genre": "Comedy"}
