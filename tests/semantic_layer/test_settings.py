"""The settings objects: environment over `.env` over defaults, secrets that never print, and a
bad value as a sentence that names the variable."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from pydantic import Field

from agent.errors import LLMConfigurationError
from agent.settings import AgentSettings, LLMSettings
from data_import.errors import ImportDataError
from data_import.settings import ImportSettings
from semantic_layer.errors import ConfigurationError
from semantic_layer.settings import GraphSettings
from semantic_layer.settings_base import LayerSettings

DOTENV = """\
# a comment
NEO4J_URI=bolt://from-dotenv:7687
NEO4J_PASSWORD=dotenv-password
MOVIEAGENT_GRAPH=from_dotenv
MOVIEAGENT_LLM=tgi+http://from-dotenv:80
HF_TOKEN=hf_dotenv_token
MOVIEAGENT_ENRICH=/dotenv/movies.csv
"""
SETTINGS_VARIABLES = [
    "NEO4J_URI", "NEO4J_PASSWORD", "NEO4J_USERNAME", "NEO4J_DATABASE", "MOVIEAGENT_GRAPH",
    "MOVIEAGENT_DATA_DIR", "MOVIEAGENT_LLM", "HF_TOKEN", "OPENAI_API_KEY", "MOVIEAGENT_ENRICH",
    "MOVIEAGENT_MOVIELENS", "MOVIEAGENT_QUERY_TIMEOUT_MS", "MOVIEAGENT_FSYNC",
]  # fmt: skip


@pytest.fixture
def dotenv(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A `.env` in the working directory, read as outside Docker; no such variable set."""
    for name in SETTINGS_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.delenv("MOVIEAGENT_ENV_FILE")  # the test-wide guard: here .env is the subject
    monkeypatch.chdir(tmp_path)
    path = tmp_path / ".env"
    path.write_text(DOTENV, encoding="utf-8")
    return path


def test_dotenv_in_the_working_directory_is_read(dotenv: Path) -> None:
    graph = GraphSettings.from_env()
    assert (graph.backend, graph.neo4j_uri, graph.graph_name) == (
        "neo4j",
        "bolt://from-dotenv:7687",
        "from_dotenv",
    )
    llm = LLMSettings.from_env()
    assert (llm.kind, llm.url) == ("tgi", "http://from-dotenv:80")
    assert llm.api_key is not None and llm.api_key.get_secret_value() == "hf_dotenv_token"
    assert ImportSettings.from_env().enrich == Path("/dotenv/movies.csv")


def test_the_environment_wins_over_dotenv(dotenv: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MOVIEAGENT_GRAPH", "from_environment")
    monkeypatch.setenv("MOVIEAGENT_LLM", "llamacpp")
    assert GraphSettings.from_env().graph_name == "from_environment"
    assert LLMSettings.from_env().kind == "llamacpp"
    assert GraphSettings.from_env(neo4j_uri="neo4j://explicit:7687").neo4j_uri == (
        "neo4j://explicit:7687"
    )  # an explicit argument wins over both


def test_a_given_mapping_is_read_alone(dotenv: Path) -> None:
    assert GraphSettings.from_env({}).backend == "falkordb"  # neither .env nor the environment
    assert LLMSettings.from_env({}).kind == "llamacpp"


def test_another_env_file_or_none(dotenv: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    other = dotenv.parent / "other.env"
    other.write_text("MOVIEAGENT_GRAPH=from_other\n", encoding="utf-8")
    monkeypatch.setenv("MOVIEAGENT_ENV_FILE", str(other))
    assert GraphSettings.from_env().graph_name == "from_other"
    monkeypatch.setenv("MOVIEAGENT_ENV_FILE", "")
    assert GraphSettings.from_env().graph_name == "movies"


def test_secrets_never_print(caplog: pytest.LogCaptureFixture) -> None:
    graph = GraphSettings.from_env({"NEO4J_URI": "bolt://db:7687", "NEO4J_PASSWORD": "pw-s3cret"})
    llm = LLMSettings.from_env(
        {"MOVIEAGENT_LLM": "openai+http://x/v1", "OPENAI_API_KEY": "sk-s3cret"}
    )
    agent = AgentSettings.from_env({"HF_TOKEN": "hf_s3cret", "OPENAI_API_KEY": "sk-s3cret"})
    with caplog.at_level(logging.INFO):
        logging.getLogger("test").info("settings %s %r %s %r", graph, llm, agent, agent)
    shown = " ".join([repr(graph), str(graph), repr(llm), repr(agent), caplog.text])
    assert "s3cret" not in shown and "**********" in shown
    assert graph.neo4j_password is not None
    assert graph.neo4j_password.get_secret_value() == "pw-s3cret"
    assert "s3cret" not in graph.describe() + llm.describe()


@pytest.mark.parametrize(
    ("env", "variable"),
    [
        ({"MOVIEAGENT_GRAPH": "movies; DROP"}, "MOVIEAGENT_GRAPH"),
        ({"MOVIEAGENT_FSYNC": "never"}, "MOVIEAGENT_FSYNC"),
        ({"MOVIEAGENT_QUERY_TIMEOUT_MS": "20s"}, "MOVIEAGENT_QUERY_TIMEOUT_MS"),
        ({"NEO4J_URI": "http://db:7474", "NEO4J_PASSWORD": "x"}, "NEO4J_URI"),
        ({"NEO4J_URI": "bolt://db:7687"}, "NEO4J_PASSWORD"),
    ],
)
def test_a_bad_graph_setting_is_a_sentence_naming_it(env: dict[str, str], variable: str) -> None:
    with pytest.raises(ConfigurationError, match=variable) as caught:
        GraphSettings.from_env(env)
    text = str(caught.value)
    assert text.endswith(".") and "validation error" not in text and "pydantic" not in text


@pytest.mark.parametrize(
    ("env", "variable"),
    [
        ({"MOVIEAGENT_LLM_TIMEOUT": "soon"}, "MOVIEAGENT_LLM_TIMEOUT='soon' is not a number"),
        ({"MOVIEAGENT_MAX_NEW_TOKENS": "many"}, "MOVIEAGENT_MAX_NEW_TOKENS='many' is not a number"),
        ({"MOVIEAGENT_LLAMACPP_CONTEXT": "-1"}, "MOVIEAGENT_LLAMACPP_CONTEXT='-1'"),
        ({"MOVIEAGENT_TOOL_FIRST": "perhaps"}, "MOVIEAGENT_TOOL_FIRST='perhaps'"),
        ({"MOVIEAGENT_LLM": "gpt4"}, "MOVIEAGENT_LLM='gpt4' is not an LLM spec"),
    ],
)
def test_a_bad_agent_setting_is_a_sentence_naming_it(env: dict[str, str], variable: str) -> None:
    with pytest.raises(LLMConfigurationError, match=variable) as caught:
        LLMSettings.from_env(env)
    assert "validation error" not in str(caught.value)


def test_two_bad_values_are_both_named() -> None:
    with pytest.raises(ConfigurationError) as caught:
        GraphSettings.from_env({"MOVIEAGENT_FSYNC": "never", "MOVIEAGENT_GRAPH": "a b"})
    assert "MOVIEAGENT_FSYNC" in str(caught.value) and "MOVIEAGENT_GRAPH" in str(caught.value)


def test_a_value_of_the_wrong_type_is_a_sentence_naming_it() -> None:
    class Limits(LayerSettings):
        rows: int = Field(5, validation_alias="MOVIEAGENT_ROWS")

    with pytest.raises(ImportDataError, match=r"^MOVIEAGENT_ROWS='lots' is not valid: .*\.$"):
        Limits.read({"MOVIEAGENT_ROWS": "lots"}, error=ImportDataError)
    assert Limits.read({"MOVIEAGENT_ROWS": "7"}).rows == 7


def test_empty_values_mean_the_default() -> None:
    """Compose passes `${NAME:-}` as an empty string."""
    env = {"NEO4J_URI": "", "MOVIEAGENT_GRAPH": "", "MOVIEAGENT_LLM": "", "HF_TOKEN": ""}
    assert (GraphSettings.from_env(env).backend, GraphSettings.from_env(env).graph_name) == (
        "falkordb",
        "movies",
    )
    assert LLMSettings.from_env(env).kind == "llamacpp"
