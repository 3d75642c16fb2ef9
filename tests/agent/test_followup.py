"""Follow-ups: what the last turns mentioned is linked to the graph and named in the prompt."""

from __future__ import annotations

import json
from typing import Any

from agent.cli import Conversation
from agent.loop import Agent
from agent.prompt import ReactPrompt
from semantic_layer.session import Session
from semantic_layer.tools.result import ToolResult
from tests.agent.fakes import ScriptedLLM, ScriptedTool, call, casino_candidates, final


def _copied(question: str) -> str:
    """The model's reply when asked to write a follow-up again naming what it points at: the
    question as it was, so the step reads the last turns (`agent.referent`)."""
    return json.dumps({"question": question})


def heat_facts() -> ToolResult:
    data = {"movieId": 6, "title": "Heat", "year": 1995, "directors": ["Michael Mann"]}
    return ToolResult(tool="information", kind="movie", message="Heat (1995).", data=data)


def test_a_turn_keeps_what_its_tools_resolved(tools: list[ScriptedTool]) -> None:
    tools[1].results.append(heat_facts())
    llm = ScriptedLLM(call("information", entity="Heat"), final("Michael Mann."))
    assert Agent(llm, tools).ask("Who directed Heat?").entities == ["Heat (1995)"]


def test_candidates_are_remembered_as_the_choice(tools: list[ScriptedTool]) -> None:
    tools[1].results.append(casino_candidates())
    llm = ScriptedLLM(call("information", entity="Casino"), final("Which one?"))
    result = Agent(llm, tools).ask("Casino?")
    assert result.entities == ["Casino (1995) or Casino Royale (2006)"]


def test_the_follow_up_prompt_names_what_the_last_turns_mentioned(
    tools: list[ScriptedTool], movie_graph: Any
) -> None:
    """In `movieagent chat`: "it" in the follow-up is the movie the last turn was about, found
    by linking the user's last turns to the graph (no text round trip); the names an answer
    listed are not what the user asked about."""
    tools[1].results.append(heat_facts())
    llm = ScriptedLLM(
        call("information", entity="Heat"),
        final("It was directed by Michael Mann."),
        _copied("Who stars in it?"),  # written again naming nothing: the step reads the turns
        call("information", entity="Heat"),
        final("Al Pacino and Robert De Niro."),
    )
    conversation = Conversation(Agent(llm, tools), Session())
    conversation.graph = movie_graph
    conversation.ask("Who directed Heat?", stream_answer=False)
    conversation.ask("Who stars in it?", stream_answer=False)
    (follow_up,) = llm.requests[3].messages
    text = follow_up.content
    assert text.endswith(
        "You: It was directed by Michael Mann.\n\n"
        "Question: Who stars in it?\nEarlier, the user asked about: movie Heat (1995).\n"
        "People your last answer named: Michael Mann."
    )


def test_the_question_shows_what_the_graph_found_in_it(
    tools: list[ScriptedTool], movie_graph: Any
) -> None:
    from agent.prompt import normalize_history
    from semantic_layer.linking.linker import link

    question = "Something like Casino, but a comedy from the 90s?"
    messages = ReactPrompt(tools).messages(
        question, normalize_history([]), linked=link(movie_graph, question)
    )
    assert messages[-1].content.endswith(
        f"Question: {question}\nFound in the graph: movie Casino (1995); genre Comedy; "
        'years 1990-1999 ("90s").'
    )


def test_a_name_written_otherwise_shows_how_it_was_written(
    tools: list[ScriptedTool], movie_graph: Any
) -> None:
    """A surname alone (or a place that is someone's surname) is shown as written, so the
    model can tell "What has Scorsese directed?" from a question about a place."""
    from semantic_layer.linking.linker import link

    prompt = ReactPrompt(tools)
    for question, found in [
        ("What has Scorsese directed?", 'director Martin Scorsese (written "Scorsese").'),
        ("What has Martin Scorsese directed?", "director Martin Scorsese."),
    ]:
        text = prompt.messages(question, linked=link(movie_graph, question))[-1].content
        assert text.endswith(f"Found in the graph: {found}")


def test_what_the_user_asked_about_leaves_out_what_they_rated(
    tools: list[ScriptedTool], movie_graph: Any
) -> None:
    """The earlier line names what the user asked about in the last turns: not the titles an
    answer listed ("more like that" is not all of them), nor a movie the user rated ("Rate The
    Big Lebowski 5."), which their ratings carry already ("Pick a comedy for me" after it is
    not a comedy like The Big Lebowski)."""
    from agent.llm.base import ChatMessage
    from semantic_layer.tools.contract import ToolContext

    def earlier_line(user: str, answer: str) -> str:
        llm = ScriptedLLM(final("Fine."))
        history = [ChatMessage(role="user", content=user),
                   ChatMessage(role="assistant", content=answer)]  # fmt: skip
        Agent(llm, tools).ask("any from the 90s like that?", history, ToolContext(movie_graph))
        return llm.requests[0].messages[-1].content.splitlines()[-1]

    asked = earlier_line("Films like Alien?", "Viewers who liked Alien (1979) also liked Aliens.")
    assert asked == "Earlier, the user asked about: movie Alien (1979)."
    rated = earlier_line("Rate The Big Lebowski 5.", "Stored 5/5 for The Big Lebowski (1998).")
    assert "Lebowski" not in rated and not rated.startswith("Earlier,")


def test_the_people_the_last_answer_named_are_shown_for_he_or_she(
    tools: list[ScriptedTool], movie_graph: Any
) -> None:
    """A follow-up such as "What else has she been in?" after a cast points at a person the
    answer named, whom the user never wrote: the people of the last answer are shown on a line
    of their own, by name alone (with a role, "actor Sigourney Weaver", the line read as what
    the user asked for, and the model recommended her films); its titles are not shown ("more
    like that" is the user's movie, not every title listed)."""
    from agent.llm.base import ChatMessage
    from semantic_layer.tools.contract import ToolContext

    def last_lines(user: str, answer: str) -> list[str]:
        llm = ScriptedLLM(_copied("What else has she been in?"), final("Fine."))
        history = [ChatMessage(role="user", content=user),
                   ChatMessage(role="assistant", content=answer)]  # fmt: skip
        Agent(llm, tools).ask("What else has she been in?", history, ToolContext(movie_graph))
        return llm.requests[1].messages[-1].content.splitlines()[-2:]

    cast = "Alien (1979) stars Sigourney Weaver, Tom Skerritt and John Hurt."
    assert last_lines("Who starred in Alien?", cast) == [
        "Earlier, the user asked about: movie Alien (1979).",
        "People your last answer named: Sigourney Weaver, Tom Skerritt, John Hurt.",
    ]
    titles = "Viewers who liked Alien (1979) also liked Aliens (1986) and Heat (1995)."
    assert last_lines("Films like Alien?", titles)[-1] == (
        "Earlier, the user asked about: movie Alien (1979)."
    )


def test_a_shared_title_is_the_film_the_last_answer_dated(movie_graph: Any) -> None:
    """ "Got anything like that one?" after "Titanic (1997) was directed by James Cameron.": the
    model writes "Titanic", which two films share; the tool gets the one the answer dated,
    not a question back. With no year in the conversation it gets the title as written."""
    from pydantic import BaseModel, Field

    from agent.llm.base import ChatMessage
    from semantic_layer.linking.arguments import entity
    from semantic_layer.tools.contract import ToolContext

    class Liked(BaseModel):
        movies: list[str] = Field(default_factory=list, json_schema_extra=entity("movie"))

    def sent(answer: str) -> list[str]:
        tool = ScriptedTool("recommender", "Films like the ones named.", Liked)
        llm = ScriptedLLM(
            _copied("Got anything like that one?"),
            call("recommender", movies=["Titanic"]),
            final("Try these."),
        )
        history = [ChatMessage(role="user", content="Who directed Titanic?"),
                   ChatMessage(role="assistant", content=answer)]  # fmt: skip
        Agent(llm, [tool]).ask("Got anything like that one?", history, ToolContext(movie_graph))
        return list(tool.calls[0]["movies"])

    assert sent("Titanic (1997) was directed by James Cameron.") == ["Titanic (1997)"]
    assert sent("Titanic (1953) was directed by Jean Negulesco.") == ["Titanic (1953)"]
    assert sent("It was directed by James Cameron.") == ["Titanic"]
