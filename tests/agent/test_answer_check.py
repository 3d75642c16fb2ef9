"""Answers keep to what this question's tools returned, stop at a sentence end, and follow the
question's language."""

from __future__ import annotations

import json

import pytest

from agent import Agent
from agent.answer_check import Grounding, example_names, list_end, sentence_end
from agent.answers import default_answer
from agent.events import AnswerToken, FinalAnswer
from agent.language import detect_language
from agent.prompt import ReactPrompt
from semantic_layer.tools.result import ToolResult
from tests.agent.fakes import ScriptedLLM, call, final, information

SPIELBERG = json.dumps(
    {
        "message": "Steven Spielberg: acted in 0 and directed 30 movies in the graph.",
        "data": {"directed": [{"title": "Jaws", "year": 1975}, {"title": "Duel", "year": 1971}]},
    }
)
LUMET = {"12 Angry Men", "Dog Day Afternoon", "Network", "Sidney Lumet"}


def test_the_examples_names_are_read_from_their_observations() -> None:
    names = example_names(ReactPrompt([]).instructions)
    assert names >= LUMET
    assert "Ghostbusters" not in names  # a tool call's argument, not an Observation's row


@pytest.mark.parametrize(
    ("answer", "kept"),
    [
        (  # the example's films appended to a person's list (seen with the 1.5B model)
            "Steven Spielberg directed Duel, Jaws, and 12 Angry Men (1957), Dog Day "
            "Afternoon (1975) and Network (1976).",
            "Steven Spielberg directed Duel, Jaws.",
        ),
        (
            "Spielberg directed Jaws (1975), Psycho (1960) and Duel.",
            "Spielberg directed Jaws (1975).",
        ),
        ("He made Jaws (1975). He also made Network, a satire.", "He made Jaws (1975)."),
        ("Steven Spielberg directed Jaws (1975) and Duel (1971).", None),  # all held: unchanged
        ("12 Angry Men (1957) is a classic.", None),  # nothing would be left: unchanged
    ],
)
def test_an_answer_is_cut_before_the_first_movie_no_source_holds(
    answer: str, kept: str | None
) -> None:
    grounding = Grounding(["What has Steven Spielberg directed?", SPIELBERG], LUMET)
    assert grounding.cut(answer) == (kept or answer)


def test_a_movie_the_user_named_or_a_tool_returned_is_held() -> None:
    grounding = Grounding(["Who directed 12 Angry Men (1957)?", "Sidney Lumet"], LUMET)
    answer = "12 Angry Men (1957) was directed by Sidney Lumet."
    assert grounding.first_unsupported(answer) is None


@pytest.mark.parametrize(
    ("before", "piece", "keep"),
    [
        ("x" * 50 + ".", " Then", None),  # short: it goes on
        ("x" * 210 + ".", " Then", 0),  # long, and a sentence ended: stop before the space
        ("x" * 210 + " done", ". Then", 1),  # the period and the space in one piece
        ("x" * 210 + " E.T.", " the", None),  # initials do not end a sentence
        ("x" * 210 + " Dr.", " Strangelove", None),
        ("x" * 210 + ", and", " more", None),  # no sentence end: it goes on
    ],
)
def test_a_long_answer_ends_at_a_sentence_end(before: str, piece: str, keep: int | None) -> None:
    assert sentence_end(before, piece, 200) == keep


def test_the_loop_stops_a_long_answer_at_its_next_sentence_end() -> None:
    sentences = [f"Sentence number {n} says something about the movie." for n in range(12)]
    llm = ScriptedLLM(final(" ".join(sentences)), chunk=3)
    events = list(Agent(llm, [], answer_chars=120).stream("Tell me everything"))
    last = events[-1]
    assert isinstance(last, FinalAnswer)
    assert last.answer == " ".join(sentences[:3])  # 3 sentences pass 120 characters
    streamed = "".join(e.text for e in events if isinstance(e, AnswerToken))
    assert streamed == last.answer  # nothing shown past the cut


def test_the_loop_cuts_films_copied_from_the_examples() -> None:
    person = ToolResult(tool="information", kind="person", message=SPIELBERG)
    tool = information()
    tool.results.append(person)
    copied = (
        "Steven Spielberg directed Jaws (1975), Duel (1971), 12 Angry Men (1957), Dog Day "
        "Afternoon (1975) and Network (1976), and many more films over the decades."
    )
    llm = ScriptedLLM(call("information", entity="Steven Spielberg", entity_type="person"))
    llm.enqueue(final(copied))
    result = Agent(llm, [tool]).ask("What has Steven Spielberg directed?")
    assert result.answer == "Steven Spielberg directed Jaws (1975), Duel (1971)."
    assert result.stop_reason == "answer"


@pytest.mark.parametrize(
    ("question", "language"),
    [
        ("Qui a réalisé Inception ?", "fr"),
        ("Quels films Steven Spielberg a-t-il réalisés ?", "fr"),
        ("Bonjour, ça va ?", "fr"),
        ("Wer hat bei Alien Regie geführt?", "de"),
        ("Gibt es Filme wie Toy Story?", "de"),
        ("Empfiehl mir einen Horrorfilm.", "de"),
        ("Chi ha diretto Forrest Gump?", "it"),
        ("Consigliami una commedia.", "it"),
        ("Recomiéndame una buena comedia.", "es"),
        ("Who directed Die Hard?", "en"),  # one German-looking word in a title
        ("Tell me about La La Land", "en"),
        ("Is Das Boot a war movie?", "en"),
    ],
)
def test_french_german_and_italian_are_told_apart(question: str, language: str) -> None:
    assert detect_language(question) == language


def test_the_observation_asks_for_the_answer_in_the_questions_language() -> None:
    llm = ScriptedLLM(call("information", entity="Inception"), final("Christopher Nolan."))
    Agent(llm, [information()]).ask("Qui a réalisé Inception ?")
    assert "Write the Final Answer in French" in llm.requests[1].messages[-1].content
    english = ScriptedLLM(call("information", entity="Inception"), final("Christopher Nolan."))
    Agent(english, [information()]).ask("Who directed Inception?")
    assert "Write the Final Answer in" not in english.requests[1].messages[-1].content


def test_a_cut_that_would_leave_a_word_or_two_keeps_the_whole_answer() -> None:
    grounding = Grounding(["Anything good?"])
    answer = "I like Heat (1995) and Alien (1979)."
    assert grounding.cut(answer) == answer and not grounding.should_stop(answer)


def test_the_loops_own_answers_speak_french_german_and_italian() -> None:
    assert default_answer("candidates", "Qui a réalisé Casino ?", options="Casino (1995)") == (
        "Plusieurs titres correspondent : Casino (1995). Lequel voulez-vous dire ?"
    )
    assert "Welchen" in default_answer(
        "candidates", "Wer hat bei Casino Regie geführt?", options="x"
    )
    assert "3 passaggi" in default_answer("step_limit", "Chi ha diretto Casino?", steps="3")


@pytest.mark.parametrize(
    ("before", "piece", "keep"),
    [
        ("A (1971), B (1968), C (1980", "),", 1),  # the third item, then a comma: stop there
        ("A (1971), B (1968), C (1980)", ",", 0),
        ("A (1971), B (1968), C (1980)", " and", None),  # "and D": the list's last item
        ("A (1971), B (1968)", ", C", None),  # two items only
    ],
)
def test_a_list_ends_after_three_movies(before: str, piece: str, keep: int | None) -> None:
    assert list_end(before, piece, 3) == keep


def test_the_loop_names_three_movies_of_a_long_list() -> None:
    films = ", ".join(f"Film {n} ({1950 + n})" for n in range(12))
    observation = ToolResult(tool="information", kind="person", message=films)
    tool = information()
    tool.results.append(observation)
    llm = ScriptedLLM(call("information", entity="Ann Lee", entity_type="person"), chunk=2)
    llm.enqueue(final(f"Ann Lee directed 12 movies, among them {films}."))
    events = list(Agent(llm, [tool]).stream("What did Ann Lee direct?"))
    last = events[-1]
    assert isinstance(last, FinalAnswer)
    assert (
        last.answer
        == "Ann Lee directed 12 movies, among them Film 0 (1950), Film 1 (1951), Film 2 (1952)."
    )
    assert "".join(e.text for e in events if isinstance(e, AnswerToken)) == last.answer


def test_initials_in_a_title_do_not_start_a_list_item() -> None:
    grounding = Grounding(["Prometheus 2012"])
    answer = "Ridley Scott directed Prometheus (2012), G.I. Jane (1997) and more."
    assert grounding.cut(answer) == "Ridley Scott directed Prometheus (2012)."
