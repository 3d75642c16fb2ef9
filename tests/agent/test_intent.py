"""What the question's own words ask for, where the model's call says otherwise: a movie looked up
when the user asks for movies like it, a genre passed as a tag, a rating repeated from an
earlier turn, a recommender call that dropped the movie after "like" or misread the genre."""

from __future__ import annotations

import json
from typing import Any

import pytest
from pydantic import BaseModel

from agent import Agent, Correction
from agent.grammar import FINAL_ANSWER
from agent.intent import (
    asks_like,
    complete_arguments,
    gives_rating,
    liked_titles,
    redirect,
    stated_rating,
)
from semantic_layer.session import Session
from semantic_layer.tools import ToolContext
from tests.agent.fakes import ScriptedLLM, ScriptedTool, call, final, recommender


@pytest.mark.parametrize(
    ("question", "title"),
    [
        ("¿Qué películas se parecen a Amores Perros?", "Amores Perros"),
        ("What would fans of Goodfellas like?", "Goodfellas"),
        (
            "有没有类似 Crouching Tiger, Hidden Dragon 的电影\uff1f",
            "Crouching Tiger, Hidden Dragon",
        ),
        ("My Neighbor Totoro に似た映画はありますか\uff1f", "My Neighbor Totoro"),
        ("Horror movies that people who liked Alien enjoyed?", "Alien"),
        ("Je cherche un film comme Shrek.", "Shrek"),
        ("Filme wie 'Heat'?", "Heat"),
        ("Anything like Ghostbusters?", "Ghostbusters"),
        ("If I liked Notting Hill, what else would I enjoy?", "Notting Hill"),
        ("A sci-fi movie in the vein of Moon, please.", "Moon"),
        ("Qualcosa di simile a Nuovo Cinema Paradiso?", "Nuovo Cinema Paradiso"),
    ],
)
def test_a_marker_next_to_the_title_asks_for_movies_like_it(question: str, title: str) -> None:
    assert asks_like(question, title)


@pytest.mark.parametrize(
    ("question", "title"),
    [
        ("I like Heat, who directed it?", "Heat"),  # "like" as a verb
        ("Would you like Heat?", "Heat"),
        ("Who directed Heat?", "Heat"),
        ("What is Heat like?", "Heat"),
        ("Is Heat similar to Casino?", "Heat"),  # the other movie is the one compared to
        ("Wie heißt der Regisseur von Heat?", "Heat"),  # "wie" far from the title
        ("¿Cómo se llama el director de Amores Perros?", "Amores Perros"),
        ("Movies like Heat?", "Casino"),  # not in the question at all
    ],
)
def test_no_marker_next_to_the_title_is_a_question_about_it(question: str, title: str) -> None:
    assert not asks_like(question, title)


def test_the_words_after_a_marker_are_tried_longest_first() -> None:
    titles = list(liked_titles("Something like Pulp Fiction, but a comedy."))
    assert titles[0] == "Pulp Fiction, but a comedy" and "Pulp Fiction" in titles
    assert titles.index("Pulp Fiction") < titles.index("Pulp")
    cjk = list(liked_titles("有没有类似 Crouching Tiger, Hidden Dragon 的电影\uff1f"))
    assert "Crouching Tiger, Hidden Dragon" in cjk and len(cjk) == len(set(cjk))
    totoro = list(liked_titles("My Neighbor Totoro に似た映画はありますか\uff1f"))
    assert totoro[0] == "My Neighbor Totoro"
    assert "Heat" in liked_titles("Wie heißt ein Film wie Heat?")  # ß keeps its place
    assert list(liked_titles("Who directed Heat?")) == []


@pytest.mark.parametrize(
    ("question", "gives"),
    [
        ("Now recommend me something from my own ratings.", False),
        ("What should I watch next, going by my ratings?", False),
        ("Recommend me something.", False),
        ("I loved it, remember that.", True),
        ("Rate it 4.", True),
        ("Je donne cinq étoiles à Amélie.", True),
        ("Heat was ok.", True),
        ("给它打五星。", True),
    ],
)
def test_a_rating_given_in_the_question_is_told_from_a_mention_of_ratings(
    question: str, gives: bool
) -> None:
    assert gives_rating(question) is gives


def test_redirect_names_the_call_the_question_asks_for() -> None:
    reason, details = redirect(
        "information", {"entity": "Alien", "entity_type": "movie"},
        "Horror movies that people who liked Alien enjoyed?",
    ) or ("", {})  # fmt: skip
    assert reason == "wants_similar"
    assert '"movie": "Alien"' in details["call"] and '"genre": "Horror"' in details["call"]
    tag = redirect("most_tagged", {"tag": "documentaries", "limit": 10}, "Any good documentaries?")
    assert tag is not None and tag[0] == "genre_as_tag" and "Documentary" in tag[1]["call"]
    for kept in (
        ("most_tagged", {"tag": "dark comedy"}, "Any dark comedies?"),  # more than a genre
        ("most_tagged", {"tag": "horror"}, "Movies tagged horror?"),  # the user said tag
        ("information", {"entity": "Heat"}, "Who directed Heat?"),
        ("recommender", {"movie": "Heat"}, "Movies like Heat?"),
        ("memory", {"movie": "Heat", "rating": 4}, "Rate it 4."),  # a follow-up's rating
        ("memory", {"movie": "Heat", "rating": 5}, "I loved Heat."),
    ):
        assert redirect(*kept) is None, kept
    stale = redirect("memory", {"movie": "Toy Story", "rating": 5}, "Now recommend me something.")
    assert stale is not None and stale[0] == "no_rating" and stale[1]["movie"] == "Toy Story"
    assert '"action": "recommender"' in stale[1]["then"]
    other = redirect("memory", {"movie": "Heat", "rating": 5}, "And who directed it?")
    assert other is not None and "recommender" not in other[1]["then"]


def test_a_movie_looked_up_when_the_user_asks_for_movies_like_it_goes_back_once(
    tools: list[ScriptedTool],
) -> None:
    info = call("information", entity="Amores Perros", entity_type="movie")
    llm = ScriptedLLM(info, call("recommender", movie="Amores Perros"), final("Prueba 21 Grams."))
    events = list(Agent(llm, tools).stream("¿Qué películas se parecen a Amores Perros?"))
    (correction,) = [e for e in events if isinstance(e, Correction)]
    assert correction.reason == "wants_similar" and "recommender" in correction.observation
    after = llm.requests[1].json_schema  # the next step must call a tool, not answer
    assert after is not None and FINAL_ANSWER not in after["properties"]["action"]["enum"]
    assert FINAL_ANSWER in (llm.requests[2].json_schema or {})["properties"]["action"]["enum"]
    assert tools[1].calls == [] and tools[0].calls[0]["movie"] == "Amores Perros"
    # the same call again runs: the user may really have asked about the movie
    llm = ScriptedLLM(info, info, final("Amores Perros (2000)."))
    Agent(llm, tools).ask("¿Qué películas se parecen a Amores Perros?")
    assert [c["entity"] for c in tools[1].calls] == ["Amores Perros"]


class _Rating(BaseModel):
    movie: str
    rating: float


def test_a_rating_of_an_earlier_turn_is_not_stored_again(tools: list[ScriptedTool]) -> None:
    memory = ScriptedTool("memory", "Stores a rating.", _Rating)
    history = [
        {"role": "user", "content": "I loved Toy Story, 5 stars."},
        {"role": "assistant", "content": "Stored 5/5 for Toy Story (1995)."},
    ]
    llm = ScriptedLLM(
        call("memory", movie="Toy Story", rating=5), call("recommender"), final("Try Up.")
    )
    question = "Now recommend me something from my own ratings."
    events = list(Agent(llm, [*tools, memory]).stream(question, history))
    assert [e.reason for e in events if isinstance(e, Correction)] == ["no_rating"]
    assert memory.calls == [] and len(tools[0].calls) == 1


@pytest.fixture
def graph_context(movie_graph: Any) -> ToolContext:
    return ToolContext(movie_graph, Session(user_id=1))


def test_the_movie_after_like_fills_a_recommender_call_that_dropped_it(
    movie_graph: Any,
) -> None:
    tool = recommender()
    question = "Something like Pulp Fiction, but a comedy."
    done = complete_arguments(tool, {"genre": "Comedy"}, question, movie_graph)
    assert done == {"genre": "Comedy", "movie": "Pulp Fiction"}
    zh = "有没有类似 Crouching Tiger, Hidden Dragon 的电影\uff1f"
    assert complete_arguments(tool, {}, zh, movie_graph) == {
        "movie": "Crouching Tiger, Hidden Dragon"
    }
    # nothing after a marker names a movie: nothing is guessed
    assert complete_arguments(tool, {}, "Something like a comedy.", movie_graph) == {
        "genre": "Comedy"
    }
    assert complete_arguments(tool, {"movie": "Heat"}, "Movies like Heat?", movie_graph) == {
        "movie": "Heat"
    }


def test_a_genre_the_question_does_not_name_gives_way_to_the_one_it_names() -> None:
    tool = recommender()
    italian = "Consigliami un film di fantascienza."
    assert complete_arguments(tool, {"genre": "Fantasy"}, italian, None) == {"genre": "Sci-Fi"}
    scary = "Something scary to watch tonight?"  # the model's reading, kept
    assert complete_arguments(tool, {"genre": "Horror"}, scary, None) == {"genre": "Horror"}
    western = "Kannst du mir einen Western empfehlen?"
    assert complete_arguments(tool, {"genre": "Sci-Fi"}, western, None) == {"genre": "Western"}


def test_the_loop_runs_the_completed_call(graph_context: ToolContext) -> None:
    tool = recommender()
    llm = ScriptedLLM(call("recommender", genre="Comedy"), final("Try Fargo."))
    result = Agent(llm, [tool]).ask("Something like Pulp Fiction, but a comedy.", (), graph_context)
    assert result.steps[0].input == {"genre": "Comedy", "movie": "Pulp Fiction"}
    assert tool.calls[0]["movie"] == "Pulp Fiction" and len(llm.requests) == 2


@pytest.mark.parametrize(
    ("tool", "arguments", "question", "reason", "call"),
    [
        ("information", {"entity": "Fargo"}, "Got anything in the same spirit as Fargo?",
         "wants_similar", {"movie": "Fargo"}),
        ("information", {"entity": "Rocky"}, "Und was empfiehlst du mir jetzt?",
         "wants_movies", {}),  # the movie of an earlier turn, and a request for movies
        ("information", {"entity": "Gravity"}, "Can you recommend something like it?",
         "wants_movies", {"movie": "Gravity"}),
        ("information", {"entity": "Terror"}, "¿Me recomiendas una película de terror?",
         "genre_as_tag", {"genre": "Horror"}),
        ("information", {"entity": "Un bon film de science-fiction"},
         "Un bon film de science-fiction ?", "genre_as_tag", {"genre": "Sci-Fi"}),
        ("information", {"entity": "Mi consigli una commedia"}, "Mi consigli una commedia?",
         "genre_as_tag", {"genre": "Comedy"}),
    ],
)  # fmt: skip
def test_a_request_for_movies_looked_up_as_facts_names_the_recommender_call(
    tool: str, arguments: dict[str, Any], question: str, reason: str, call: dict[str, str]
) -> None:
    found = redirect(tool, arguments, question)
    assert found is not None and found[0] == reason
    assert json.loads(found[1]["call"]) == {"action": "recommender", "action_input": call}


@pytest.mark.parametrize(
    ("tool", "arguments", "question"),
    [
        ("information", {"entity": "Gravity"}, "Who directed it?"),
        ("information", {"entity": "Terror"}, "Who directed Terror?"),
        ("information", {"entity": "Heat"}, "Should I watch Heat?"),
        ("most_tagged", {"tag": "pixar"}, "Any pixar movies?"),
    ],
)
def test_a_question_about_the_movie_keeps_its_call(
    tool: str, arguments: dict[str, Any], question: str
) -> None:
    assert redirect(tool, arguments, question) is None


class _Chat(BaseModel):
    query: str | None = None


def test_small_talk_for_a_request_for_movies_goes_back_naming_the_recommender(
    tools: list[ScriptedTool],
) -> None:
    chat = ScriptedTool("smalltalk", "Greetings.", _Chat)
    llm = ScriptedLLM(call("smalltalk", query="Hallo!"), call("recommender"), final("Rocky II."))
    events = list(Agent(llm, [*tools, chat]).stream("Und was empfiehlst du mir jetzt?"))
    (correction,) = [e for e in events if isinstance(e, Correction)]
    assert correction.reason == "about_movies" and '"action": "recommender"' in (
        correction.observation
    )
    after = llm.requests[1].json_schema
    assert after is not None and FINAL_ANSWER not in after["properties"]["action"]["enum"]
    assert chat.calls == [] and len(tools[0].calls) == 1
    # movie words but no request for movies to watch: no call is named, an answer stays open
    llm = ScriptedLLM(call("smalltalk", query="hi"), final("Hello!"))
    events = list(Agent(llm, [*tools, chat]).stream("Do you like films?"))
    (correction,) = [e for e in events if isinstance(e, Correction)]
    assert "recommender" not in correction.observation
    assert FINAL_ANSWER in (llm.requests[1].json_schema or {})["properties"]["action"]["enum"]


@pytest.mark.parametrize(
    ("question", "rating"),
    [
        ("Put down 3 stars for Grease.", 3.0),
        ("4.5/5 for Heat", 4.5),
        ("Titanic (1997) 2 out of 5", 2.0),
        ("Je donne 4 sur 5 à Amélie", 4.0),
        ("Rate Se7en 4", 4.0),  # a digit inside a title is not a rating
        ("Rate Toy Story 3 a 4", None),  # two numbers: the model's reading stays
        ("I loved it", None),
    ],
)
def test_the_rating_a_question_states_in_digits(question: str, rating: float | None) -> None:
    assert stated_rating(question) == rating


def test_a_stored_rating_is_the_one_the_user_stated() -> None:
    memory = ScriptedTool("memory", "Stores a rating.", _Rating)
    done = complete_arguments(
        memory, {"movie": "Grease", "rating": 5}, "Put down 3 stars for Grease.", None
    )
    assert done == {"movie": "Grease", "rating": 3.0}


def test_more_requests_for_movies_looked_up_as_facts() -> None:
    found = redirect(
        "information", {"entity": "animated films"}, "Any animated films you'd recommend?"
    )
    assert found is not None and '"genre": "Animation"' in found[1]["call"]
    found = redirect("information", {"entity": "Rain Man"}, "Pick something for me.")
    assert found is not None and found[0] == "wants_movies"
    assert asks_like("What should I see after Braveheart?", "Braveheart")
