"""The production stack, checked statically: no Docker engine runs in CI.

The compose file is resolved with `.env.example` as a user's Docker would, by the real Compose
client (`compose_check.resolve`; the tests that resolve are skipped where none is installed),
and the environment each container receives is loaded by the app's own settings loaders.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

import pytest
import yaml

from agent.settings import LLMSettings
from semantic_layer.settings import GraphSettings
from tests.deploy import compose_check as cc
from tests.deploy import dockerfile_check as dc

COMPOSE_TEXT = cc.COMPOSE_FILE.read_text()
EXAMPLE_ENV = cc.read_env_file(cc.ENV_EXAMPLE)
CLIS = cc.CLIS


def resolved(env: dict[str, str] | None = None, profiles: list[str] | None = None) -> dict:
    return cc.resolve(COMPOSE_TEXT, EXAMPLE_ENV if env is None else env, profiles)


def container_env(service: dict[str, Any]) -> dict[str, str]:
    """The variables a container gets (None, an unresolved bare key, means unset)."""
    return {k: v for k, v in service["environment"].items() if v is not None}


def mutated(transform) -> dict:
    data = cc.load_raw(COMPOSE_TEXT)
    transform(data)
    return cc.resolve(yaml.safe_dump(data), EXAMPLE_ENV)


# ---------------------------------------------------------------------------------------------
# Resolution with the real Compose clients (skipped where none is installed)
# ---------------------------------------------------------------------------------------------


def _cli_params() -> list[Any]:
    if not CLIS:
        return [pytest.param(None, marks=pytest.mark.skip(reason=cc.NO_CLIENT), id="no-cli")]
    return [pytest.param(cli, id=f"{cli.label}-v{cli.major}") for cli in CLIS]


@pytest.mark.parametrize("cli", _cli_params())
def test_compose_client_resolves_the_file_like_our_resolver(cli: cc.ComposeCli) -> None:
    result = cc.cli_config(cli, cc.ENV_EXAMPLE)
    assert result.returncode == 0, result.stderr
    theirs = cc.parse_cli_config(result.stdout, cli, ["gpu"])
    ours = resolved()
    assert set(theirs["services"]) == set(ours["services"]) == {"neo4j", "tgi", "import", "app"}
    assert set(theirs["volumes"]) == set(ours["volumes"])
    for name, service in ours["services"].items():
        assert container_env(theirs["services"][name]) == container_env(service), name
        assert theirs["services"][name]["depends_on"].keys() == service["depends_on"].keys()
        for target, spec in service["depends_on"].items():
            got = theirs["services"][name]["depends_on"][target]["condition"]
            assert got == spec["condition"]
        their_test = cc.healthcheck_test(theirs["services"][name])
        assert their_test == cc.healthcheck_test(service), name


@pytest.mark.parametrize("cli", _cli_params())
def test_compose_client_resolves_without_the_gpu_profile(
    cli: cc.ComposeCli, tmp_path: Path
) -> None:
    env_file = tmp_path / "no-gpu.env"
    values = EXAMPLE_ENV | {"COMPOSE_PROFILES": "", "MOVIEAGENT_LLM": "openai+http://vllm:8000/v1"}
    env_file.write_text("".join(f"{k}={v}\n" for k, v in values.items()))
    result = cc.cli_config(cli, env_file)
    assert result.returncode == 0, result.stderr
    theirs = cc.parse_cli_config(result.stdout, cli, [])
    assert set(theirs["services"]) == {"neo4j", "import", "app"}
    assert theirs["services"]["app"]["environment"]["MOVIEAGENT_LLM"] == (
        "openai+http://vllm:8000/v1"
    )


@pytest.mark.parametrize("cli", _cli_params())
def test_compose_client_refuses_to_run_without_a_neo4j_password(
    cli: cc.ComposeCli, tmp_path: Path
) -> None:
    env_file = tmp_path / "no-password.env"
    values = {k: v for k, v in EXAMPLE_ENV.items() if k != "NEO4J_PASSWORD"}
    env_file.write_text("".join(f"{k}={v}\n" for k, v in values.items()))
    result = cc.cli_config(cli, env_file)
    assert result.returncode != 0
    assert "NEO4J_PASSWORD" in result.stdout + result.stderr


# ---------------------------------------------------------------------------------------------
# The stack: services, healthchecks, dependencies, no localhost
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("profiles", [["gpu"], []], ids=["with-gpu", "without-gpu"])
def test_stack_has_no_problems(profiles: list[str]) -> None:
    model = resolved(profiles=profiles)
    expected = {"neo4j", "import", "app"} | ({"tgi"} if profiles else set())
    assert set(model["services"]) == expected
    assert cc.all_problems(model) == []


def test_env_example_enables_the_gpu_profile() -> None:
    assert set(resolved()["services"]) == {"neo4j", "tgi", "import", "app"}


def test_services_are_what_the_issue_asks_for() -> None:
    services = resolved()["services"]
    neo4j, tgi, job, app = (services[n] for n in ("neo4j", "tgi", "import", "app"))

    assert re.fullmatch(r"neo4j:5[.\w-]*", neo4j["image"])
    assert neo4j["environment"]["NEO4J_AUTH"] == "neo4j/" + EXAMPLE_ENV["NEO4J_PASSWORD"]
    assert {v.split(":")[1] for v in neo4j["volumes"]} >= {"/data", "/logs"}
    assert "cypher-shell" in " ".join(neo4j["healthcheck"]["test"])
    assert "RETURN 1" in " ".join(neo4j["healthcheck"]["test"])

    assert tgi["image"].startswith("ghcr.io/huggingface/text-generation-inference:")
    assert tgi["profiles"] == ["gpu"]
    assert tgi["environment"]["MODEL_ID"] == "mistralai/Mixtral-8x7B-Instruct-v0.1"
    assert "/health" in " ".join(tgi["healthcheck"]["test"])
    assert _duration_s(tgi["healthcheck"]["start_period"]) >= 30 * 60, "weights take long"
    assert any(v.endswith(":/data") for v in tgi["volumes"]), "weights cache volume"
    devices = tgi["deploy"]["resources"]["reservations"]["devices"]
    assert devices[0]["capabilities"] == ["gpu"] and devices[0]["driver"] == "nvidia"
    assert "HF_TOKEN" in tgi["environment"]

    assert job["command"][0] == "import" and "--source" in job["command"]
    assert job["command"][job["command"].index("--source") + 1] == EXAMPLE_ENV["MOVIELENS_SOURCE"]
    assert str(job["restart"]) == "no"

    assert app["command"] == ["ui"]
    assert any(str(p).endswith(":8501") for p in app["ports"])
    assert "_stcore/health" in " ".join(app["healthcheck"]["test"])
    assert "tgi" not in app["depends_on"], "tgi is optional (profile gpu); the app must not wait"


def test_tgi_settings_are_configurable() -> None:
    env = EXAMPLE_ENV | {
        "TGI_MODEL_ID": "meta-llama/Llama-3.1-8B-Instruct",
        "TGI_QUANTIZE": "eetq",
        "TGI_MAX_INPUT_TOKENS": "3000",
        "TGI_MAX_TOTAL_TOKENS": "4000",
        "HF_TOKEN": "hf_example",
    }
    tgi = resolved(env)["services"]["tgi"]
    assert tgi["environment"]["MODEL_ID"] == "meta-llama/Llama-3.1-8B-Instruct"
    assert tgi["environment"]["TGI_QUANTIZE"] == "eetq"
    assert tgi["environment"]["MAX_INPUT_TOKENS"] == "3000"
    assert tgi["environment"]["MAX_TOTAL_TOKENS"] == "4000"
    assert tgi["environment"]["HF_TOKEN"] == "hf_example"
    # The launcher only sees --quantize when a method is named; an empty value would crash it.
    assert "QUANTIZE" not in tgi["environment"]
    script = tgi["command"][0]
    assert 'case "$TGI_QUANTIZE" in ""|none)' in script
    assert "exec /tgi-entrypoint.sh" in script


def test_the_import_release_is_configurable() -> None:
    env = EXAMPLE_ENV | {
        "MOVIELENS_SOURCE": "/movielens/ml-25m.zip",
        "MOVIELENS_ENRICH": "/movielens/enriched/movies.csv",
    }
    job = resolved(env)["services"]["import"]
    assert job["command"] == ["import", "--source", "/movielens/ml-25m.zip"]
    assert job["environment"]["MOVIEAGENT_ENRICH"] == "/movielens/enriched/movies.csv"
    assert any(v.startswith("./movielens:/movielens") for v in job["volumes"])
    # Empty values fall back to the GroupLens release, not to an empty --source.
    job = resolved(EXAMPLE_ENV | {"MOVIELENS_SOURCE": ""})["services"]["import"]
    assert job["command"][2].startswith("https://files.grouplens.org/")


# ---------------------------------------------------------------------------------------------
# The app's own settings loaders accept what the containers receive
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("service", ["app", "import"])
def test_graph_settings_accept_the_container_environment(service: str) -> None:
    env = container_env(resolved()["services"][service])
    settings = GraphSettings.from_env(env)
    assert settings.backend == "neo4j"
    assert settings.neo4j_uri == "neo4j://neo4j:7687"
    assert settings.neo4j_username == "neo4j"
    assert settings.neo4j_password is not None
    assert settings.neo4j_password.get_secret_value() == EXAMPLE_ENV["NEO4J_PASSWORD"]
    assert settings.neo4j_database is None
    assert str(settings.data_dir) == "/data"


def test_llm_settings_accept_the_app_environment() -> None:
    env = container_env(resolved()["services"]["app"])
    settings = LLMSettings.from_env(env)
    assert settings.kind == "tgi"
    assert settings.url == "http://tgi:80"
    assert settings.api_key is None  # empty HF_TOKEN
    assert settings.max_new_tokens == 512
    assert settings.timeout_s == 60.0


def test_llm_settings_accept_an_external_openai_server() -> None:
    env = EXAMPLE_ENV | {
        "MOVIEAGENT_LLM": "openai+http://vllm.internal:8000/v1",
        "MOVIEAGENT_LLM_MODEL": "mistralai/Mixtral-8x7B-Instruct-v0.1",
        "OPENAI_API_KEY": "sk-example",
    }
    model = resolved(env, profiles=[])
    settings = LLMSettings.from_env(container_env(model["services"]["app"]))
    assert (settings.kind, settings.url) == ("openai", "http://vllm.internal:8000/v1")
    assert settings.model == "mistralai/Mixtral-8x7B-Instruct-v0.1"
    assert settings.api_key is not None and settings.api_key.get_secret_value() == "sk-example"
    assert cc.all_problems(model) == []


def test_graph_settings_accept_neo4j_aura() -> None:
    env = EXAMPLE_ENV | {
        "NEO4J_URI": "neo4j+s://abcd1234.databases.neo4j.io",
        "NEO4J_USERNAME": "abcd1234",
        "NEO4J_DATABASE": "abcd1234",
    }
    model = resolved(env)
    settings = GraphSettings.from_env(container_env(model["services"]["app"]))
    assert settings.neo4j_uri == "neo4j+s://abcd1234.databases.neo4j.io"
    assert (settings.neo4j_username, settings.neo4j_database) == ("abcd1234", "abcd1234")
    assert cc.all_problems(model) == []


def test_a_missing_password_stops_resolution_with_a_sentence() -> None:
    env = {k: v for k, v in EXAMPLE_ENV.items() if k != "NEO4J_PASSWORD"}
    with pytest.raises(cc.InterpolationError, match=r"NEO4J_PASSWORD.*copy \.env\.example"):
        resolved(env)
    with pytest.raises(cc.InterpolationError, match="NEO4J_PASSWORD"):
        resolved(EXAMPLE_ENV | {"NEO4J_PASSWORD": ""})


def test_the_app_requires_the_sign_in_settings() -> None:
    env = {k: v for k, v in EXAMPLE_ENV.items() if k != "STREAMLIT_SECRETS_FILE"}
    with pytest.raises(cc.InterpolationError, match=r"STREAMLIT_SECRETS_FILE.*\[auth\]"):
        resolved(env)
    app = resolved()["services"]["app"]
    mounts = [v for v in app["volumes"] if isinstance(v, dict)]
    assert {
        "type": "bind",
        "source": "./streamlit-secrets.toml",
        "target": "/home/movieagent/.streamlit/secrets.toml",  # Streamlit's ~/.streamlit
        "read_only": True,
    } in mounts
    assert "create_host_path" not in str(mounts)  # a missing file stops `up`, no empty folder


# ---------------------------------------------------------------------------------------------
# The checkers reject broken stacks (so that a green run means something)
# ---------------------------------------------------------------------------------------------


def test_localhost_for_another_service_is_rejected() -> None:
    model = resolved(EXAMPLE_ENV | {"MOVIEAGENT_LLM": "tgi+http://localhost:8080"})
    problems = cc.loopback_problems(model)
    assert problems and "app: MOVIEAGENT_LLM=tgi+http://localhost:8080" in problems[0]

    model = resolved(EXAMPLE_ENV | {"NEO4J_URI": "bolt://127.0.0.1:7687"})
    assert {p.split(":")[0] for p in cc.loopback_problems(model)} == {"app", "import"}


def test_localhost_written_into_the_compose_file_is_rejected() -> None:
    def inline_localhost(data: dict) -> None:
        data["services"]["app"]["environment"]["MOVIEAGENT_LLM"] = "tgi+http://localhost:80"

    def probe_other_service(data: dict) -> None:
        data["services"]["app"]["healthcheck"]["test"] = [
            "CMD-SHELL",
            "curl -f http://localhost:7474/ || exit 1",
        ]

    assert cc.loopback_problems(mutated(inline_localhost))
    problems = cc.loopback_problems(mutated(probe_other_service))
    assert problems and "not a port of its own container" in problems[0]


def test_a_host_that_is_no_service_is_rejected() -> None:
    model = resolved(EXAMPLE_ENV | {"MOVIEAGENT_LLM": "tgi+http://tgl:80"})
    assert cc.address_problems(model) == [
        "app: MOVIEAGENT_LLM=tgi+http://tgl:80 names 'tgl', which is no service"
    ]


def test_missing_healthchecks_and_conditions_are_rejected() -> None:
    def drop_neo4j_healthcheck(data: dict) -> None:
        del data["services"]["neo4j"]["healthcheck"]

    def plain_depends_on(data: dict) -> None:
        data["services"]["app"]["depends_on"] = ["neo4j", "import"]

    def restarting_import(data: dict) -> None:
        data["services"]["import"]["restart"] = "on-failure"

    problems = cc.all_problems(mutated(drop_neo4j_healthcheck))
    assert "neo4j: no healthcheck" in problems
    assert "app: waits for neo4j to be healthy; it has no check" in problems

    problems = cc.all_problems(mutated(plain_depends_on))
    assert any("app: depends on neo4j with condition 'service_started'" in p for p in problems)
    assert (
        "app: depends_on import should be service_completed_successfully, is service_started"
        in problems
    )

    assert "import: a one-shot job must not restart (restart: 'no')" in cc.all_problems(
        mutated(restarting_import)
    )


def test_depending_on_a_service_of_an_inactive_profile_is_rejected() -> None:
    def wait_for_tgi(data: dict) -> None:
        data["services"]["app"]["depends_on"]["tgi"] = {"condition": "service_healthy"}

    data = cc.load_raw(COMPOSE_TEXT)
    wait_for_tgi(data)
    model = cc.resolve(yaml.safe_dump(data), EXAMPLE_ENV, profiles=[])
    assert "app: depends on 'tgi', which is not started" in cc.dependency_problems(model)


# ---------------------------------------------------------------------------------------------
# .env.example
# ---------------------------------------------------------------------------------------------


def test_env_example_is_readable_by_every_reader() -> None:
    assert cc.env_file_problems(cc.ENV_EXAMPLE) == []


def test_env_example_documents_every_compose_variable() -> None:
    assert cc.env_example_problems(COMPOSE_TEXT, cc.ENV_EXAMPLE) == []
    used = set(cc.compose_variables(COMPOSE_TEXT))
    assert {"NEO4J_PASSWORD", "MOVIEAGENT_LLM", "TGI_MODEL_ID", "TGI_QUANTIZE"} <= used
    assert {"MOVIELENS_SOURCE", "HF_TOKEN", "TGI_MAX_TOTAL_TOKENS"} <= used


def test_env_example_documents_each_variable_with_a_comment() -> None:
    lines = cc.ENV_EXAMPLE.read_text().splitlines()
    undocumented = []
    for i, line in enumerate(lines):
        if line and not line.startswith("#") and "=" in line:
            above = lines[i - 1] if i else ""
            # A value line follows its comment, or a sibling value line of the same block.
            if not (above.startswith("#") or ("=" in above and not above.startswith("#"))):
                undocumented.append(line.split("=")[0])
    assert undocumented == []


def test_env_checker_rejects_inline_comments_and_undocumented_variables(tmp_path: Path) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text(
        "# a comment line is fine\n"
        "NEO4J_PASSWORD=secret-password # the admin password\n"
        'HF_TOKEN="hf_x"\n'
        "OPENAI_API_KEY=sk-a$b\n"
    )
    problems = cc.env_file_problems(env_file)
    assert any("NEO4J_PASSWORD has a '#'" in p for p in problems)
    assert any("HF_TOKEN is quoted" in p for p in problems)
    assert any("OPENAI_API_KEY has a '$'" in p for p in problems)
    # Compose v2 would cut the comment off; `docker run --env-file` would not.
    assert cc.read_env_file(env_file)["NEO4J_PASSWORD"] == "secret-password"
    missing = cc.env_example_problems(COMPOSE_TEXT, env_file)
    assert ".env does not document MOVIEAGENT_LLM, which docker-compose.yml uses" in missing


def test_env_example_points_at_services_not_localhost() -> None:
    for key in cc.ADDRESS_SETTINGS:
        assert not cc.LOOPBACK.search(EXAMPLE_ENV[key]), key


# ---------------------------------------------------------------------------------------------
# The client follows Compose's interpolation rules (what the file relies on)
# ---------------------------------------------------------------------------------------------


def _v2_only(text: str, expected: str) -> Any:
    """Compose v1 refuses `:+`, `+` and a lone `$`, and leaves a nested default unexpanded."""
    v1_only = bool(CLIS) and all(cli.major == 1 for cli in CLIS)
    mark = pytest.mark.skipif(v1_only, reason="Compose v1 lacks this syntax; v2 has it")
    return pytest.param(text, expected, marks=mark)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("${SET}", "x"),
        ("$SET/$$SET", "x/$SET"),
        ("${UNSET:-d}|${EMPTY:-d}|${EMPTY-d}|${UNSET-d}", "d|d||d"),
        _v2_only("${SET:+alt}|${EMPTY:+alt}|${EMPTY+alt}", "alt||alt"),
        _v2_only("${UNSET:-${SET}}", "x"),
        ("$${NEO4J_AUTH#*/}", "${NEO4J_AUTH#*/}"),
        _v2_only("cost $5", "cost $5"),
    ],
)
def test_interpolation_follows_compose(text: str, expected: str) -> None:
    assert cc.interpolate(text, {"SET": "x", "EMPTY": ""}) == expected


def test_required_variables_raise() -> None:
    with pytest.raises(cc.InterpolationError, match="EMPTY is missing a value: say so"):
        cc.interpolate("${EMPTY:?say so}", {"EMPTY": ""})
    assert cc.interpolate("${EMPTY?say so}", {"EMPTY": ""}) == ""


# ---------------------------------------------------------------------------------------------
# Dockerfile and .dockerignore
# ---------------------------------------------------------------------------------------------

STAGES = dc.dockerfile_stages(dc.DOCKERFILE.read_text())


def test_dockerfile_builds_in_a_builder_stage_and_runs_slim() -> None:
    assert len(STAGES) >= 2
    builder, final = STAGES[0], STAGES[-1]
    assert builder.name == "builder"
    assert all(re.match(r"python:3\.12[.\d]*-slim", s.base) for s in STAGES)
    build_tools = re.compile(r"build-essential|gcc|cmake")
    assert any(build_tools.search(a) for k, a in builder.instructions if k == "RUN")
    assert not any(build_tools.search(a) for k, a in final.instructions if k == "RUN")
    assert any("--from=builder" in a for k, a in final.instructions if k == "COPY")


def test_dockerfile_runs_as_a_non_root_user() -> None:
    user = dc.final_user(STAGES[-1])
    assert user is not None, "the final stage has no USER"
    assert user.split(":")[0] not in {"root", "0"}


def test_dockerfile_copies_every_package_of_the_project() -> None:
    pyproject = tomllib.loads((dc.REPO / "pyproject.toml").read_text())
    include = pyproject["tool"]["setuptools"]["packages"]["find"]["include"]
    packages = {pattern.rstrip("*") for pattern in include}
    assert "cypher" in packages
    copied = dc.copied_sources(STAGES)
    assert packages <= copied, f"not copied: {sorted(packages - copied)}"
    assert {"pyproject.toml", "README.md"} <= copied  # the build reads both


def test_dockerfile_starts_the_app_with_the_movieagent_command() -> None:
    final = STAGES[-1]
    entrypoint = [a for k, a in final.instructions if k == "ENTRYPOINT"][-1]
    assert '"movieagent"' in entrypoint
    assert any(k == "EXPOSE" and "8501" in a for k, a in final.instructions)


def test_dockerignore_keeps_secrets_and_local_state_out() -> None:
    ignored = {
        line.strip().rstrip("/")
        for line in dc.DOCKERIGNORE.read_text().splitlines()
        if line.strip() and not line.startswith("#")
    }
    assert {".git", ".venv", ".env", ".streamlit", "streamlit-secrets.toml"} <= ignored
    assert "!README.md" not in ignored and "README.md" not in ignored  # the build needs it
    assert not ({"cypher", "movieagent", "pyproject.toml"} & ignored)


def _duration_s(value: str) -> float:
    units = {"h": 3600, "m": 60, "s": 1, "ms": 0.001}
    return sum(float(n) * units[u] for n, u in re.findall(r"(\d+(?:\.\d+)?)(ms|h|m|s)", str(value)))
