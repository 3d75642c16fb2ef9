"""`movieagent ui` and the small pure pieces of the page."""

from __future__ import annotations

from typer.testing import CliRunner

from agent.result import ToolStep
from movieagent.cli import app
from tests.agent.fakes import casino_candidates
from tests.ui import harness
from ui.cli import APP, streamlit_command
from ui.subgraph import subgraph_dot


def test_streamlit_command_flags() -> None:
    command = streamlit_command(port=8600, address="127.0.0.1", headless=True)
    assert command[1:5] == ["-m", "streamlit", "run", str(APP)]
    assert APP.name == "app.py" and APP.is_file()
    joined = " ".join(command)
    assert "--server.fileWatcherType none" in joined
    assert "--browser.gatherUsageStats false" in joined
    assert "--server.headless true" in joined
    assert "--server.port 8600" in joined and "--server.address 127.0.0.1" in joined


def test_unset_options_are_left_to_streamlit() -> None:
    joined = " ".join(streamlit_command())
    assert "--server.port" not in joined and "--server.headless" not in joined


def test_the_app_listens_on_loopback_unless_told_otherwise() -> None:
    local = " ".join(streamlit_command(env={}))
    assert "--server.address 127.0.0.1" in local
    docker = " ".join(streamlit_command(env={"STREAMLIT_SERVER_ADDRESS": "0.0.0.0"}))
    assert "--server.address" not in docker  # Streamlit reads the variable itself
    explicit = " ".join(streamlit_command(address="0.0.0.0", env={}))
    assert "--server.address 0.0.0.0" in explicit


def test_ui_is_a_movieagent_command() -> None:
    result = CliRunner().invoke(app, ["ui", "--help"])
    assert result.exit_code == 0
    assert "--port" in result.output and "--headless" in result.output


def test_subgraph_of_a_movie_and_of_recommendations() -> None:
    movie = ToolStep(step=1, tool="information", output="", result=harness.casino_facts())
    dot = subgraph_dot(movie)
    assert dot is not None
    assert '"Martin Scorsese"' in dot and '"Casino (1995)"' in dot and "directed" in dot
    recs = ToolStep(
        step=1,
        tool="recommender",
        input={"movie": "Heat"},
        output="",
        result=harness.heat_recommendations(),
    )
    dot = subgraph_dot(recs)
    assert dot is not None and '"Heat"' in dot and "31 viewers liked both" in dot
    candidates = ToolStep(step=1, tool="information", output="", result=casino_candidates())
    assert subgraph_dot(candidates) is None
