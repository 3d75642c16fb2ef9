"""A tool call that names a movie or person nobody mentioned goes back to the model once."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from agent import Agent, Correction
from agent.grounding import about_movies, genre_mentioned, ungrounded_arguments
from semantic_layer.errors import ToolArgumentsError
from tests.agent.fakes import ScriptedLLM, ScriptedTool, call, final, information, recommender


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


class _Together(ScriptedTool):
    """Takes two people; the graph (here a set) knows only some names as people."""

    def check(self, arguments: Any, ctx: Any) -> Any:
        wrong = [v for v in dict(arguments).values() if v not in {"Tom Hanks", "Meg Ryan"}]
        if wrong:
            raise ToolArgumentsError(f"{wrong[0]!r} is not a person, it is a movie")
        return arguments


def test_a_name_of_the_wrong_kind_goes_back_before_the_tool_runs() -> None:
    together = _Together("movies_together", "Two people's movies.", _TwoPeople)
    recommend = recommender()
    llm = ScriptedLLM(
        call("movies_together", first_person="Saving Private Ryan", second_person="War"),
        call("recommender", movie="Saving Private Ryan"),
        final("Try Band of Brothers."),
    )
    agent = Agent(llm, [together, recommend])
    events = list(agent.stream("War movies for fans of Saving Private Ryan?"))
    (correction,) = [e for e in events if isinstance(e, Correction)]
    assert correction.reason == "wrong_kind"
    assert "'Saving Private Ryan' is not a person" in correction.observation
    assert together.calls == [] and recommend.calls[0]["movie"] == "Saving Private Ryan"


class _TwoPeople(BaseModel):
    first_person: str
    second_person: str


class _Kinded(ScriptedTool):
    def check(self, arguments: Any, ctx: Any) -> Any:
        return arguments.model_copy(update={"entity_type": "person"})


def test_a_checked_call_runs_and_is_reported_as_checked() -> None:
    info = _Kinded("information", "Facts.", information().input_model)
    llm = ScriptedLLM(call("information", entity="Denis Villeneuve"), final("Sicario, Enemy."))
    result = Agent(llm, [info]).ask("Tell me about Denis Villeneuve.")
    assert result.steps[0].input == {"entity": "Denis Villeneuve", "entity_type": "person"}
    assert info.calls[0]["entity_type"] == "person" and len(llm.requests) == 2


def test_movie_words_in_any_language_are_not_small_talk() -> None:
    for text in (
        "Kannst du mir einen Western empfehlen?",
        "Me recomende um filme de terror.",
        "Something scary to watch tonight?",
        "I'm in the mood for a western.",
        "推荐几部科幻电影。",
    ):
        assert about_movies(text), text
    for text in ("Hi there!", "What is the population of Chicago?", "How do I cook ratatouille?"):
        assert not about_movies(text), text


def test_small_talk_about_movies_goes_back_once(tools: list[ScriptedTool]) -> None:
    chat = ScriptedTool("smalltalk", "Greetings.", _Chat)
    llm = ScriptedLLM(
        call("smalltalk", query="hi"),
        call("recommender", genre="Comedy"),
        final("Try Airplane!"),
    )
    events = list(Agent(llm, [*tools, chat]).stream("Can you recommend a funny movie?"))
    (correction,) = [e for e in events if isinstance(e, Correction)]
    assert correction.reason == "about_movies" and chat.calls == []
    assert tools[0].calls[0]["genre"] == "Comedy"


class _Chat(BaseModel):
    query: str | None = None


def test_a_call_sent_back_as_ungrounded_is_still_checked_when_repeated() -> None:
    together = _Together("movies_together", "Two people's movies.", _TwoPeople)
    recommend = recommender()
    wrong = call("movies_together", first_person="Braveheart", second_person="Gladiator")
    llm = ScriptedLLM(wrong, wrong, call("recommender", movie="Braveheart"), final("Try Rob Roy."))
    events = list(Agent(llm, [together, recommend]).stream("What should I see after Braveheart?"))
    reasons = [e.reason for e in events if isinstance(e, Correction)]
    assert reasons == ["ungrounded", "wrong_kind"] and together.calls == []


def test_the_one_genre_a_question_names_is_found_in_its_own_words() -> None:
    from agent.grounding import genre_named

    assert genre_named("I want to watch a horror movie tonight. Any suggestions?") == "Horror"
    assert genre_named("What are some great sci-fi films?") == "Sci-Fi"
    assert genre_named("Recomiéndame una buena comedia.") == "Comedy"
    assert genre_named("おすすめのアニメ映画を教えてください。") == "Animation"
    assert genre_named("What should I watch tonight, going by my ratings?") is None
    assert genre_named("A funny horror movie?") is None  # two genres: not for us to pick
    assert genre_named("Something like Scarface", leave_out=["Scarface"]) is None


def test_a_recommender_call_without_arguments_gets_the_genre_the_user_named(
    tools: list[ScriptedTool],
) -> None:
    llm = ScriptedLLM(call("recommender"), final("Prueba Dr. Strangelove."))
    result = Agent(llm, tools).ask("Recomiéndame una buena comedia.")
    assert tools[0].calls[-1]["genre"] == "Comedy"
    assert result.steps[0].input == {"genre": "Comedy"} and len(llm.requests) == 2
    for question in (
        "What should I watch tonight, going by my ratings?",  # no genre named
        "I want to watch a horror movie tonight.",  # a genre this tool's model does not take
    ):
        llm = ScriptedLLM(call("recommender"), final("Try Heat."))
        assert Agent(llm, tools).ask(question).steps[0].input == {}
