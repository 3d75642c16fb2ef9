"""The conversion of each Compose client's `config` output, on recorded outputs: no client, no
Docker engine, no network. Compose v2 (Go) prints depends_on with `required`, a disabled
healthcheck as `disable: true`, ports and volumes in long syntax, durations as `1m0s`, and has
already dropped the services of inactive profiles; v1 (Python) prints short syntax, `[NONE]`,
and every service. `parse_cli_config` must give the checks the same model from both.

Re-record both after a change to docker-compose.yml or .env.example (with each client at hand):

    python -c "from tests.deploy.test_compose_output import record; record(2, 'PATH/docker-compose')"
    python -c "from tests.deploy.test_compose_output import record; record(1, '/usr/bin/docker-compose')"
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from agent.settings import LLMSettings
from semantic_layer.settings import GraphSettings
from tests.deploy import compose_check as cc

RECORDED = Path(__file__).parent / "recorded"
OUTPUTS = {2: RECORDED / "compose-v2.40.3-config.yaml", 1: RECORDED / "compose-v1.29.2-config.yaml"}
PLACEHOLDER = "@REPO@"


def recorded(major: int) -> str:
    return OUTPUTS[major].read_text(encoding="utf-8").replace(PLACEHOLDER, str(cc.REPO))


def model(major: int, profiles: list[str] | None = None) -> dict[str, Any]:
    cli = cc.ComposeCli(f"recorded v{major}", (), major)
    return cc.parse_cli_config(recorded(major), cli, ["gpu"] if profiles is None else profiles)


def record(major: int, binary: str) -> None:
    """Write the recording of one client (run by hand, see the module docstring)."""
    result = cc.cli_config(
        cc.ComposeCli("recording", (binary,), major), cc.ENV_EXAMPLE, profiles=["gpu"]
    )
    if result.returncode != 0:
        raise SystemExit(result.stderr)
    header = OUTPUTS[major].read_text(encoding="utf-8").split("\n")
    comments = "\n".join(line for line in header if line.startswith("#"))
    body = result.stdout.replace(str(cc.REPO), PLACEHOLDER)
    OUTPUTS[major].write_text(f"{comments}\n{body}", encoding="utf-8")


def _seconds(value: Any) -> float:
    units = {"h": 3600, "m": 60, "s": 1, "ms": 0.001}
    return sum(float(n) * units[u] for n, u in re.findall(r"(\d+(?:\.\d+)?)(ms|h|m|s)", str(value)))


def test_v2_output_becomes_the_model_the_checks_read() -> None:
    services = model(2)["services"]
    assert set(services) == {"neo4j", "tgi", "import", "app"}
    app, job, neo4j = services["app"], services["import"], services["neo4j"]
    assert (
        app["environment"]["MOVIEAGENT_MAX_NEW_TOKENS"] == "512"
    )  # a string, as a process gets it
    assert app["environment"]["HF_TOKEN"] == ""
    assert app["depends_on"] == {
        "import": {"condition": "service_completed_successfully", "required": True},
        "neo4j": {"condition": "service_healthy", "required": True},
    }
    assert app["ports"] == ["8501:8501"]  # long syntax, tcp, back to the short form
    assert "movieagent-data:/data" in app["volumes"]  # a named volume
    assert "./movielens:/movielens:ro" in job["volumes"]  # a short bind, relative again
    assert cc.healthcheck_test(job) is None  # `disable: true`
    shell = cc.healthcheck_test(neo4j)[1]
    assert '"${NEO4J_AUTH#*/}"' in shell and "$$" not in shell  # `$$` unescaped
    assert _seconds(neo4j["healthcheck"]["start_period"]) == 60  # v2 prints 1m0s
    assert cc.all_problems(model(2)) == []


def test_v2_has_already_chosen_the_services_of_the_active_profiles() -> None:
    """v1 prints every service and the conversion drops inactive profiles; v2's output is kept."""
    assert "tgi" in model(2, profiles=[])["services"]
    assert "tgi" not in model(1, profiles=[])["services"]


def test_both_clients_give_the_same_model() -> None:
    v1, v2 = model(1)["services"], model(2)["services"]
    assert set(v1) == set(v2)
    for name in v2:
        ours, theirs = v1[name], v2[name]
        for key in ("environment", "volumes", "ports", "command", "entrypoint", "restart"):
            assert ours.get(key) == theirs.get(key), (name, key)
        assert {t: s["condition"] for t, s in ours["depends_on"].items()} == {
            t: s["condition"] for t, s in theirs["depends_on"].items()
        }, name
        assert cc.healthcheck_test(ours) == cc.healthcheck_test(theirs), name
        for key in ("interval", "timeout", "start_period"):
            got = [_seconds((s.get("healthcheck") or {}).get(key)) for s in (ours, theirs)]
            assert got[0] == got[1], (name, key)


def test_the_settings_loaders_accept_what_v2_gives_the_containers() -> None:
    services = model(2)["services"]
    app = {k: v for k, v in services["app"]["environment"].items() if v is not None}
    graph = GraphSettings.from_env(app)
    assert (graph.backend, graph.neo4j_uri, str(graph.data_dir)) == (
        "neo4j",
        "neo4j://neo4j:7687",
        "/data",
    )
    llm = LLMSettings.from_env(app)
    assert (llm.kind, llm.url, llm.api_key) == ("tgi", "http://tgi:80", None)


@pytest.mark.parametrize("major", [1, 2])
def test_the_recording_is_of_the_current_compose_file(major: int) -> None:
    """The recording has every variable docker-compose.yml gives each recorded service
    (otherwise re-record, see the module docstring)."""
    raw = cc.load_raw(cc.COMPOSE_FILE.read_text())["services"]
    services = model(major)["services"]
    assert set(services) <= set(raw)
    for name, service in services.items():
        declared = raw[name].get("environment") or {}
        names = set(declared) if isinstance(declared, dict) else {e.split("=")[0] for e in declared}
        assert names == set(service["environment"]), f"{name}: re-record {OUTPUTS[major].name}"
