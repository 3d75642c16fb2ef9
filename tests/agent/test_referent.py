"""A follow-up that names nothing itself ("What else has he directed?", "the first one"): the
model writes it again naming what it points at, and the step reads the question as being about
the first of the last turns' movies and people that the rewrite names."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from agent import Agent
from agent.llm.base import ChatMessage
from agent.referent import label, options, rewrite_schema
from semantic_layer.linking.linker import link
from semantic_layer.linking.mentions import Linked
from semantic_layer.session import Session
from semantic_layer.tools import build_tools
from semantic_layer.tools.contract import ToolContext
from tests.agent.fakes import ScriptedLLM, call, final

ALIEN = [
    ChatMessage(role="user", content="Who directed Alien?"),
    ChatMessage(role="assistant", content="Alien (1979) was directed by Ridley Scott."),
]
ASKED = (
    "Before the tool call: write the user's question again, word for word, except that each "
    "word pointing back to something the conversation named"
)


def _rewritten(question: str) -> str:
    return json.dumps({"question": question})


def _is_rewrite(schema: dict[str, Any] | None) -> bool:
    """Whether a request's grammar is the rewrite's (one object holding the question)."""
    return schema is not None and schema.get("required") == ["question"]


def _ask(movie_graph: Any, question: str, history: list[ChatMessage], *replies: str) -> Any:
    llm = ScriptedLLM(*replies, context=8192)  # a window the conversation fits in
    result = Agent(llm, build_tools()).ask(question, history, ToolContext(movie_graph))
    return result, llm


def test_a_follow_up_that_names_nothing_is_about_what_its_rewrite_names(
    movie_graph: Any,
) -> None:
    result, llm = _ask(
        movie_graph,
        "What else has he directed?",
        ALIEN,
        _rewritten("What else has Ridley Scott directed?"),
        call("film_facts", entity="Ridley Scott", about=["directors"], entity_type="person"),
    )
    asked, step = llm.requests[0], llm.requests[1]
    assert _is_rewrite(asked.json_schema)
    assert ASKED in asked.messages[-1].content.splitlines()[-1]
    # the step reads the question as being about him, not the film the user asked about
    assert step.messages[-1].content.endswith(
        "Question: What else has he directed?\nThe question is about: director Ridley Scott."
    )
    assert "Earlier, the user asked about" not in step.messages[-1].content
    assert "Ridley Scott" in json.dumps(step.json_schema)  # offered for the naming arguments
    assert result.referent == "Ridley Scott"
    assert result.steps[0].input["entity"] == "Ridley Scott"
    # his films are the answer, rendered: the rewrite and the step are the model's only calls
    assert result.answer.startswith("Films directed by Ridley Scott (")
    assert len(result.llm_calls) == 2


def test_a_rewrite_that_names_none_of_the_last_turns_names_changes_nothing(
    movie_graph: Any,
) -> None:
    """The question copied as it was, or a name the conversation never gave (the model's own
    guess; the grammar rules both out, a backend without one does not): the step reads the last
    turns as it would without the rewrite."""
    for rewrite in ("What else has he directed?", "What else has Steven Spielberg directed?"):
        result, llm = _ask(
            movie_graph,
            "What else has he directed?",
            ALIEN,
            _rewritten(rewrite),
            call("film_facts", entity="Ridley Scott", about=["directors"], entity_type="person"),
            final("Ridley Scott directed Gladiator (2000)."),
        )
        assert (
            llm.requests[1]
            .messages[-1]
            .content.endswith(
                "Question: What else has he directed?\n"
                "Earlier, the user asked about: movie Alien (1979).\n"
                "People your last answer named: Ridley Scott."
            )
        ), rewrite
        assert result.referent is None


def test_the_first_of_the_last_turns_names_the_rewrite_writes_is_chosen(movie_graph: Any) -> None:
    history = [
        ChatMessage(role="user", content="Films like Heat?"),
        ChatMessage(
            role="assistant",
            content="Try Fargo (1996), The Silence of the Lambs (1991) or Memento (2000).",
        ),
    ]
    result, llm = _ask(
        movie_graph,
        "Who directed the first one?",
        history,
        _rewritten("Who directed Fargo (1996), the first one after Heat?"),
        call("film_facts", entity="Fargo", about=["directors"]),
        final("Fargo (1996) was directed by Joel Coen."),
    )
    assert (
        llm.requests[1].messages[-1].content.endswith("The question is about: movie Fargo (1996).")
    )
    assert result.referent == "Fargo (1996)"
    assert result.steps[0].input["entity"] == "Fargo"


def test_the_options_are_the_last_answers_names_in_its_order_then_what_was_asked(
    movie_graph: Any,
) -> None:
    answer = link(movie_graph, "Try Fargo (1996), with Steve Buscemi, or Memento (2000).")
    asked = link(movie_graph, "Films like Heat?")
    memento = {m.best.movie_id for m in link(movie_graph, "Memento").movies}
    offered = options(asked, answer, lambda films: films & memento)  # rated by the user
    assert [label(o) for o in offered] == ["Fargo (1996)", "Steve Buscemi", "Heat (1995)"]


def test_a_follow_up_that_names_something_itself_is_not_rewritten(movie_graph: Any) -> None:
    history = [
        ChatMessage(role="user", content="Who is in Pulp Fiction?"),
        ChatMessage(role="assistant", content="Pulp Fiction (1994) stars Uma Thurman."),
    ]
    result, llm = _ask(
        movie_graph,
        "What has Uma Thurman been in besides that?",
        history,
        call("film_facts", entity="Uma Thurman", about=["cast"], entity_type="person"),
    )
    assert not _is_rewrite(llm.requests[0].json_schema)
    assert result.referent is None and len(result.llm_calls) == 1  # her films are the answer
    assert result.answer.startswith("Films with Uma Thurman in the cast (")


def test_films_the_user_rated_are_not_pointed_at_their_ratings_speak_for_them(
    movie_graph: Any,
) -> None:
    """MovieLens user 1 rated Heat and Braveheart: "What else would suit me?" after them is a
    request by that user's taste, not one like either film, so nothing is asked; a guest who
    rated neither is asked what the question points at."""
    history = [
        ChatMessage(role="user", content="Heat and Braveheart, both 5 stars."),
        ChatMessage(role="assistant", content="Saved: Heat (1995) 5, Braveheart (1995) 5."),
    ]
    user = ToolContext(movie_graph, Session(user_id=1, read_only=True))
    for context, rewritten in ((user, False), (ToolContext(movie_graph), True)):
        llm = ScriptedLLM(call("recommender"), final("Try Alien."), context=8192)
        Agent(llm, build_tools()).ask("What else would suit me?", history, context)
        assert _is_rewrite(llm.requests[0].json_schema) is rewritten


def test_the_rewrite_must_write_one_of_the_names_the_last_turns_gave(movie_graph: Any) -> None:
    """Left free, a small model copies the question whenever it hesitates; the grammar makes
    the rewrite name one of the options (a title without its year, a person's name), titles
    with a regular expression's characters included, and leaves the rest of it free."""
    answer = link(
        movie_graph,
        "Try E.T. the Extra-Terrestrial (1982), Batman & Robin (1997) or Alien (1979), "
        "directed by Ridley Scott.",
    )
    offered = options(link(movie_graph, "Films like Heat?"), answer, lambda films: set())
    pattern = rewrite_schema(offered)["properties"]["question"]["pattern"]
    for name in ("E.T. the Extra-Terrestrial", "Batman & Robin", "Alien", "Ridley Scott", "Heat"):
        assert re.fullmatch(pattern, f"Who made {name}, the one before?"), name
    for copied in ("Who directed the second one?", "Who made ET?", 'Who made "Alien"?'):
        assert not re.fullmatch(pattern, copied), copied


def test_the_rewrite_grammar_is_one_llama_cpp_compiles(movie_graph: Any) -> None:
    llama_grammar = pytest.importorskip("llama_cpp.llama_grammar")
    answer = link(movie_graph, "Try E.T. the Extra-Terrestrial (1982) or Batman & Robin (1997).")
    schema = rewrite_schema(options(Linked(), answer, lambda films: set()))
    gbnf = llama_grammar.json_schema_to_gbnf(json.dumps(schema))
    llama_grammar.LlamaGrammar.from_string(
        gbnf, verbose=False
    )  # raises on a grammar it cannot read
