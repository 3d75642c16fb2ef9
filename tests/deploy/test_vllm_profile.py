"""The `vllm` profile: the same model on vLLM, reached by the app as an OpenAI-compatible server.

Checked like the rest of the stack (`test_compose.py`): resolved by the real Compose client
(skipped where none is installed); the app's settings accept what its container gets.
The wire format the app speaks to vLLM is tested in `tests/agent/test_openai_wire.py`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from agent.llm.openai_compat import OpenAICompatLLM
from agent.settings import LLMSettings
from tests.deploy import compose_check as cc
from tests.deploy.test_compose import COMPOSE_TEXT, EXAMPLE_ENV, _cli_params, container_env

VLLM_ENV = EXAMPLE_ENV | {
    "COMPOSE_PROFILES": "vllm",
    "MOVIEAGENT_LLM": "openai+http://vllm:8000/v1",
}


def resolved_vllm(env: dict[str, str] | None = None) -> dict[str, Any]:
    return cc.resolve(COMPOSE_TEXT, VLLM_ENV if env is None else env, ["vllm"])


def test_the_vllm_stack_has_no_problems() -> None:
    model = resolved_vllm()
    assert set(model["services"]) == {"neo4j", "vllm", "import", "app"}
    assert cc.all_problems(model) == []


def test_vllm_serves_the_same_model_on_a_gpu() -> None:
    vllm = resolved_vllm()["services"]["vllm"]
    assert vllm["image"].startswith("vllm/vllm-openai:")
    assert vllm["profiles"] == ["vllm"]
    assert vllm["environment"]["VLLM_MODEL_ID"] == "mistralai/Mixtral-8x7B-Instruct-v0.1"
    script = vllm["command"][0]
    assert 'exec vllm serve "$VLLM_MODEL_ID" --port 8000' in script
    assert 'case "$VLLM_QUANTIZATION" in ""|none)' in script
    assert "/health" in " ".join(vllm["healthcheck"]["test"])
    devices = vllm["deploy"]["resources"]["reservations"]["devices"]
    assert devices[0]["capabilities"] == ["gpu"] and devices[0]["driver"] == "nvidia"
    assert "8000" in cc.own_ports(vllm)
    assert any(v.startswith("tgi-cache:") for v in vllm["volumes"]), "one weights cache for both"


def test_the_default_stack_does_not_start_vllm() -> None:
    assert "vllm" not in cc.resolve(COMPOSE_TEXT, EXAMPLE_ENV, ["gpu"])["services"]


def test_the_app_reaches_vllm_as_an_openai_server() -> None:
    app = resolved_vllm()["services"]["app"]
    settings = LLMSettings.from_env(container_env(app))
    assert (settings.kind, settings.url) == ("openai", "http://vllm:8000/v1")
    assert "vllm" not in app["depends_on"], "the model may take long to load; the app must not wait"
    llm = OpenAICompatLLM(settings.url or "")
    assert llm.url == "http://vllm:8000/v1"


@pytest.mark.parametrize("cli", _cli_params())
def test_compose_client_resolves_the_vllm_profile(cli: cc.ComposeCli, tmp_path: Path) -> None:
    env_file = tmp_path / "vllm.env"
    env_file.write_text("".join(f"{k}={v}\n" for k, v in VLLM_ENV.items()))
    result = cc.cli_config(cli, env_file, profiles=["vllm"])
    assert result.returncode == 0, result.stderr
    theirs = cc.parse_cli_config(result.stdout, cli, ["vllm"])
    ours = resolved_vllm()
    assert set(theirs["services"]) == set(ours["services"])
    for name, service in ours["services"].items():
        assert container_env(theirs["services"][name]) == container_env(service), name
        assert cc.healthcheck_test(theirs["services"][name]) == cc.healthcheck_test(service)
