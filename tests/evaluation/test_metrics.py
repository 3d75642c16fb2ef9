"""The harness's figures on a tiny scripted run: exact numbers, and an independent recount."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from evaluation.metrics import evaluate, percentile
from evaluation.normalize import contains_fact, same_value
from evaluation.outcome import Outcome
from evaluation.questions import Question, Rating
from evaluation.report import build_report, markdown, write_report
from evaluation.runner import AgentSubject, run_set, store_ratings
from semantic_layer.session import Session
from semantic_layer.tools import ToolContext
from semantic_layer.user_policy import FIRST_EVAL_USER_ID
from tests.agent.fakes import ScriptedLLM, ScriptedTool, call, final, information, recommender

# q1 right tool and args (year and case differ), facts found; q2 right; q3 wrong tool;
# q4 one unusable reply (a null action) first, then right tool and args, one of two facts; q5 no tool (right).
SCRIPT = [
    call("information", entity="heat (1995)"),
    final("Heat was directed by Michael Mann."),
    call("recommender", movie="Matrix, The"),
    final("Try Dark City."),
    call("information", entity="Comedy"),
    final("Comedy is a genre."),
    '{"thought": "Which tool?", "action": null, "action_input": {}}',
    call("information", entity="CASINO"),
    final("Casino is by Martin Scorsese."),
    final("Hello! Ask me about movies."),
]


def _run(questions: list[Question]) -> tuple[list[Outcome], ScriptedLLM, list[Session]]:
    llm = ScriptedLLM(*SCRIPT)
    sessions: list[Session] = []

    def context_for(session: Session) -> ToolContext:
        sessions.append(session)
        return ToolContext(session=session)

    tools = [recommender(), information()]
    return run_set(AgentSubject(llm), questions, tools, context_for), llm, sessions


def test_exact_figures_on_a_scripted_run(tiny_set: list[Question]) -> None:
    outcomes, llm, sessions = _run(tiny_set)
    assert not llm.replies  # every scripted reply was used, in order
    assert [s.user_id for s in sessions] == [FIRST_EVAL_USER_ID + i for i in range(5)]
    result = evaluate(tiny_set, outcomes)
    overall = result["overall"]
    assert overall.questions == 5
    assert overall.tool_accuracy == pytest.approx(4 / 5)
    assert overall.argument_accuracy == pytest.approx(3 / 4)
    assert overall.argument_questions == 4
    assert overall.facts_rate == pytest.approx(1 / 2)
    assert overall.fact_level_rate == pytest.approx(2 / 3)
    assert overall.parse_failures == 1
    assert overall.questions_with_parse_failure == 1
    assert overall.errors == 0
    assert overall.llm_calls_per_question == pytest.approx(10 / 5)
    assert overall.prompt_tokens_per_question == pytest.approx(100 * 10 / 5)
    info, recommend, offtopic = (result["categories"][c] for c in ("info", "recommend", "offtopic"))
    assert (info.tool_accuracy, info.argument_accuracy, info.facts_rate) == (1.0, 1.0, 0.5)
    assert (recommend.tool_accuracy, recommend.argument_accuracy) == (0.5, 0.5)
    assert recommend.facts_rate is None
    assert (offtopic.tool_accuracy, offtopic.argument_accuracy) == (1.0, None)
    assert [o.llm_calls for o in outcomes] == [2, 2, 2, 3, 1]
    # each outcome keeps the model's raw replies, in order, the unreadable one included
    assert [r for o in outcomes for r in o.replies] == SCRIPT


def test_report_figures_equal_an_independent_count(
    tiny_set: list[Question], tiny_set_path: Path, tmp_path: Path
) -> None:
    outcomes, _, _ = _run(tiny_set)
    written = write_report(build_report(tiny_set, {"agent": outcomes}), tmp_path / "out")
    report = json.loads((tmp_path / "out" / "report.json").read_text(encoding="utf-8"))
    assert (tmp_path / "out" / "report.md").read_text(encoding="utf-8").count("80.0%") == 1
    assert len(written) >= 2

    # recount from the raw set file and the raw outcomes, without the harness's code
    expected = {
        q["id"]: q["expect"] for q in yaml.safe_load(tiny_set_path.read_text())["questions"]
    }
    runs = report["subjects"]["agent"]["outcomes"]
    tool_hits = arg_hits = arg_total = 0
    for run in runs:
        want = expected[run["id"]]
        accepted = want["tool"] if isinstance(want["tool"], list) else [want["tool"]]
        first = run["tools"][0]["tool"] if run["tools"] else None
        tool_hits += first in accepted
        if want.get("args"):
            arg_total += 1
            calls = [t for t in run["tools"] if t["tool"] in accepted]
            arg_hits += bool(calls) and all(
                _plain(calls[0]["input"].get(k)) == _plain(v) for k, v in want["args"].items()
            )
    overall = report["subjects"]["agent"]["overall"]
    assert overall["tool_accuracy"] == tool_hits / len(runs)
    assert overall["argument_accuracy"] == arg_hits / arg_total
    assert overall["llm_calls_per_question"] == sum(r["llm_calls"] for r in runs) / len(runs)
    assert overall["parse_failures"] == sum(r["parse_failures"] for r in runs)
    latencies = sorted(r["ms"] for r in runs)
    assert overall["latency_p50_ms"] == latencies[2]  # five values: the middle one


def _plain(value: Any) -> str:
    text = str(value).lower().replace(" (1995)", "")
    return "matrix" if text in {"the matrix", "matrix, the"} else text


def test_percentile_interpolates_between_ranks() -> None:
    assert percentile([4.0, 1.0, 3.0, 2.0], 50) == 2.5
    assert percentile([1.0, 2.0, 3.0, 4.0], 95) == pytest.approx(3.85)
    assert percentile([7.0], 95) == 7.0
    assert percentile([], 50) is None


@pytest.mark.parametrize(
    ("expected", "actual", "same"),
    [
        ("The Matrix", "matrix, the (1999)", True),
        ("Amelie", "Amélie", True),
        (5, "5", True),
        (5, 4.0, False),
        (None, None, True),
        (None, "Heat", False),
        ("Heat", None, False),
        ("Heat", "Heat 2", False),
    ],
)
def test_argument_normalization(expected: Any, actual: Any, same: bool) -> None:
    assert same_value(expected, actual) is same


def test_fact_matching() -> None:
    assert contains_fact("Dirigida por Pedro Almodovar.", "Pedro Almodóvar")
    assert contains_fact("1995年的电影", "1995")
    assert not contains_fact("released 19956", "1995")
    assert not contains_fact("Heather", "Heat")


def test_ratings_go_through_the_memory_tool() -> None:
    memory = ScriptedTool(name="memory", description="Stores a rating.", input_model=_RatingInput)
    store_ratings([recommender(), memory], [Rating(movie="Heat", rating=5)], ToolContext())
    assert memory.calls == [{"movie": "Heat", "rating": 5}]
    with pytest.raises(ValueError, match="no tool takes a movie and a rating"):
        store_ratings([recommender()], [Rating(movie="Heat", rating=5)], ToolContext())


from pydantic import BaseModel  # noqa: E402


class _RatingInput(BaseModel):
    movie: str
    rating: int


def test_an_also_tool_counts_with_its_own_arguments() -> None:
    """`also`: another tool that answers the question, checked against its own key arguments."""
    from evaluation.metrics import score
    from evaluation.outcome import ToolUse

    question = Question.model_validate(
        {
            "id": "q",
            "question": "Films directed by Sam Mendes?",
            "category": "info_person",
            "expect": {
                "tool": "information",
                "args": {"entity": "Sam Mendes", "entity_type": "person"},
                "also": [{"tool": "top_movies_by_director", "args": {"director": "Sam Mendes"}}],
            },
        }
    )

    def scored(tool: str, **args: Any) -> tuple[bool, bool | None]:
        use = ToolUse(tool=tool, input=args)
        outcome = Outcome(id="q", category="c", language="en", subject="agent", tools=[use])
        result = score(question, outcome)
        return result.tool_ok, result.args_ok

    assert scored("top_movies_by_director", director="sam mendes") == (True, True)
    assert scored("top_movies_by_director", director="Spike Lee") == (True, False)
    assert scored("information", entity="Sam Mendes", entity_type="person") == (True, True)
    assert scored("movies_together", first_person="Sam Mendes") == (False, False)


def _one(expect: dict[str, Any], tools: list[dict[str, Any]], **seen: Any) -> Any:
    question = Question.model_validate(
        {"id": "q", "category": "c", "question": "?", "expect": expect}
    )
    outcome = Outcome(id="q", category="c", language="en", subject="s", tools=tools, **seen)
    return evaluate([question], [outcome])


def test_a_list_argument_matches_an_expected_item_and_null_matches_empty() -> None:
    expect = {"tool": "recommender", "args": {"movies": ["Se7en", "Seven"], "genres": None}}
    ok = _one(expect, [{"tool": "recommender", "input": {"movies": ["Seven"], "genres": []}}])
    assert ok["scores"][0].args_ok
    extra = _one(
        expect, [{"tool": "recommender", "input": {"movies": ["Seven"], "genres": ["War"]}}]
    )
    assert not extra["scores"][0].args_ok
    other = _one(expect, [{"tool": "recommender", "input": {"movies": ["Heat"]}}])
    assert not other["scores"][0].args_ok


def test_invented_names_unrequested_writes_and_cut_answers_are_counted() -> None:
    result = _one(
        {"tool": "information"},
        [{"tool": "memory", "input": {"movie": "Heat", "rating": 1}}],
        invented=["Tom Hanks with Heat (1995)"],
        writes=["memory"],
        cut=True,
    )
    overall = result["overall"]
    assert (overall.invented, overall.questions_with_invented) == (1, 1)
    assert overall.unrequested_writes == 1 and overall.cut_answers == 1
    asked = _one({"tool": "memory"}, [{"tool": "memory", "input": {}}], writes=["memory"])
    assert asked["overall"].unrequested_writes == 0


def test_a_write_of_a_value_the_question_does_not_state_is_unrequested() -> None:
    """ "One star for Grease" stored as 4 stars is a write nobody asked for; stored as 1 it is
    the one asked; a call that returned candidates and wrote nothing is no write."""
    expect = {"tool": "memory", "args": {"movie": "Grease", "rating": 1}}
    four = {"tool": "memory", "input": {"movie": "Grease", "rating": 4}, "wrote": True}
    one = {"tool": "memory", "input": {"movie": "Grease", "rating": 1.0}, "wrote": True}
    asked_only = {"tool": "memory", "input": {"movie": "Grease", "rating": 4}}
    assert _one(expect, [four], writes=["memory"])["overall"].unrequested_writes == 1
    assert _one(expect, [one], writes=["memory"])["overall"].unrequested_writes == 0
    assert _one(expect, [asked_only])["overall"].unrequested_writes == 0
    # no rating expected ("I loved Heat"): the tool it asks for may store the model's reading
    loved = {"tool": "memory", "args": {"movie": "Grease"}}
    assert _one(loved, [four], writes=["memory"])["overall"].unrequested_writes == 0


def test_an_answer_is_cut_as_the_user_sees_it() -> None:
    from evaluation.seen import cut

    assert cut("Tom Hanks acted in 35 movies, among them", "length")
    assert cut("Tom Hanks acted in Big (1988),", "answer")
    assert not cut("Tom Hanks acted in Big (1988).", "answer")
    # the model ran out of tokens, the user got the list rendered from the rows: whole
    assert not cut("- Big (1988)\n- Splash (1984)", "length", rendered=True)
    assert cut("Tom Hanks acted in:", "length", rendered=True)


def test_a_write_is_a_call_that_ran_a_write_query() -> None:
    from evaluation.seen import writes
    from semantic_layer.tools.result import QueryTrace, ToolResult

    stored = ToolResult(tool="memory", queries=[QueryTrace(name="memory/rate", cypher="",
                                                           mode="write")])  # fmt: skip
    resolved = ToolResult(
        tool="memory", queries=[QueryTrace(name="resolve/movie_by_norm", cypher="")]
    )
    assert writes([resolved, None, stored]) == ["memory"]
    assert writes([resolved]) == []


def test_an_error_ending_is_not_counted_as_invented(
    tiny_set: list[Question], movie_graph: Any
) -> None:
    """The sentence on what to start (it names the model file, digits and all) is ours, not a
    claim about movies; the same sentence as a model's answer would count."""
    from agent.errors import LLMUnavailableError
    from evaluation.seen import invented

    sentence = "the model (/models/qwen2.5-coder-1.5b.gguf) gave no reply within 60 s"
    failing = AgentSubject(ScriptedLLM(LLMUnavailableError(sentence)))
    tools = [recommender(), information()]
    (outcome,) = run_set(failing, tiny_set[:1], tools, lambda s: ToolContext(movie_graph, s))
    assert outcome.error and sentence in outcome.answer
    assert outcome.invented == []
    assert invented(outcome.answer, [], movie_graph)


def test_an_answer_in_another_language_than_the_question_is_counted(movie_graph: Any) -> None:
    """Read as the user reads it: an English answer to a Korean question counts, the same
    answer in Korean does not, and the English titles a Korean answer names do not make it
    English. The runner reads the language of every answer it records."""
    from evaluation.seen import answer_language

    english = "You could watch Toy Story (1995) or Forrest Gump (1994), two films many people love."
    korean = "토이 스토리 (Toy Story, 1995)와 Forrest Gump (1994)를 추천합니다. 많은 사람들이 좋아합니다."
    assert answer_language(english, movie_graph) == "en"
    assert answer_language(korean, movie_graph) == "ko"
    assert answer_language("", movie_graph) is None
    assert answer_language(english, movie_graph, "ko") == "en"
    # a short answer in one of two close languages is the one asked in, either way
    stored = "Guardado: 5/5 para Titanic (1997)."
    assert answer_language(stored, movie_graph, "es") == "es"
    assert answer_language(stored, movie_graph, "pt") == "pt"
    question = Question.model_validate(
        {"id": "ko", "category": "c", "language": "ko", "question": "?", "expect": {"tool": None}}
    )
    counted = {}
    for language in ("en", "ko", None):
        outcome = Outcome(
            id="ko", category="c", language="ko", subject="s", answer_language=language
        )
        counted[language] = evaluate([question], [outcome])["overall"].other_language_answers
    assert counted == {"en": 1, "ko": 0, None: 0}
    report = markdown(build_report([question], {"agent": [outcome]}))
    assert "| answers in another language than the question | 0 |" in report

    greeting = Question.model_validate(
        {"id": "hi", "category": "c", "question": "Hi!", "expect": {"tool": None}}
    )
    llm = ScriptedLLM(final("Hello! Ask me about movies, and I will look them up."))
    (ran,) = run_set(
        AgentSubject(llm), [greeting], [recommender()], lambda s: ToolContext(movie_graph, s)
    )
    assert ran.answer_language == "en"


def test_an_argument_left_at_its_default_is_scored_as_that_value() -> None:
    """A call runs with the defaults of what it leaves out: `film_facts` without
    `entity_type` asks about a movie, and is scored as asking about a movie."""
    from evaluation.metrics import score
    from evaluation.outcome import ToolUse, ran_with
    from semantic_layer.tools import build_tools

    tools = build_tools(folders=[])
    question = Question.model_validate(
        {
            "id": "q",
            "question": "Who directed Heat?",
            "category": "info_movie",
            "expect": {"tool": "film_facts", "args": {"entity": "Heat", "entity_type": "movie"}},
        }
    )

    def args_ok(written: dict[str, Any], with_defaults: bool = True) -> bool | None:
        used = ran_with(tools, "film_facts", written) if with_defaults else written
        outcome = Outcome(
            id="q", category="c", language="en", subject="agent",
            tools=[ToolUse(tool="film_facts", input=used)],
        )  # fmt: skip
        return score(question, outcome).args_ok

    assert args_ok({"entity": "Heat", "about": ["directors"]})
    assert not args_ok({"entity": "Heat", "about": ["directors"]}, with_defaults=False)
    assert not args_ok({"entity": "Heat", "entity_type": "person"})  # written: kept
    assert ran_with(tools, "no_such_tool", {"x": 1}) == {"x": 1}
    assert ran_with(tools, "film_facts", {"about": "plot"}) == {"about": "plot"}  # invalid
