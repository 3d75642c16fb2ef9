"""Who is at the page (issue 11, finding 5): the local user, a signed-in person, a read-only demo
of a MovieLens user, and an app that refuses to serve other machines without a sign-in."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest
from typer.testing import CliRunner

import ui.cli
from movieagent.cli import app as cli_app
from semantic_layer.user_policy import LOCAL_ACCOUNT
from semantic_layer.user_ratings import count_ratings
from semantic_layer.users import FIRST_APP_USER_ID, account_user_id
from tests.agent.fakes import ScriptedLLM, call, final, information, recommender
from tests.ui import harness
from tests.ui.conftest import SCRIPT
from ui import identity
from ui.access import has_auth_section, login_problem, secrets_files

AUTH = {
    "redirect_uri": "http://localhost:8501/oauth2callback",
    "cookie_secret": "test-secret",
    "client_id": "movieagent",
    "client_secret": "test",
    "server_metadata_url": "http://127.0.0.1:9/.well-known/openid-configuration",
}


def _texts(elements: Any) -> str:
    return "\n".join(str(e.value) for e in elements)


def _signed_in(monkeypatch: pytest.MonkeyPatch, claims: Mapping[str, Any] | None) -> None:
    monkeypatch.setattr(identity, "signed_in_user", lambda: claims)


def _with_auth() -> AppTest:
    at = AppTest.from_file(str(SCRIPT), default_timeout=60)
    at.secrets["auth"] = AUTH
    return at


def test_the_local_user_is_bound_to_one_app_user(app: AppTest, writable_graph: Any) -> None:
    harness.current = harness.scripted(writable_graph, ScriptedLLM(), [recommender()])
    app.run()
    assert not app.exception
    mine = app.session_state[f"session:{LOCAL_ACCOUNT}"]
    assert mine.user_id >= FIRST_APP_USER_ID and not mine.read_only
    assert f"You are user #{mine.user_id}" in _texts(app.sidebar.caption)
    again = AppTest.from_file(str(SCRIPT), default_timeout=60)  # a second browser session
    again.run()
    assert again.session_state[f"session:{LOCAL_ACCOUNT}"].user_id == mine.user_id
    assert account_user_id(writable_graph, LOCAL_ACCOUNT) == mine.user_id


def test_a_movielens_demo_user_cannot_delete_or_rate(app: AppTest, writable_graph: Any) -> None:
    llm = ScriptedLLM(
        call("memory", movie="Heat", rating=1), final("That is a read-only demo user.")
    )
    harness.current = harness.scripted(writable_graph, llm, [recommender(), information()])
    app.run()
    app.sidebar.radio(key="who").set_value("A MovieLens user (read-only demo)").run()
    app.sidebar.selectbox(key="movielens_user").set_value(1).run()
    assert "My ratings (232)" in _texts(app.sidebar.subheader)
    assert "Read-only demo of MovieLens user #1" in _texts(app.sidebar.caption)
    assert not [b for b in app.button if b.key and b.key.startswith("remove-")]

    app.chat_input[0].set_value("I did not like Heat, 1 star").run()
    assert not app.exception
    observation = llm.requests[1].messages[-1].content
    assert "read-only demo" in observation  # refused by the session, not only hidden
    assert count_ratings(writable_graph, 1) == 232
    assert "My ratings (232)" in _texts(app.sidebar.subheader)


def test_without_a_sign_in_the_app_refuses_other_machines(
    app: AppTest, writable_graph: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    harness.current = harness.scripted(writable_graph, ScriptedLLM(), [recommender()])
    monkeypatch.setattr(identity, "listen_address", lambda: "0.0.0.0")
    app.run()
    assert not app.exception
    assert "no sign-in is configured" in _texts(app.error)
    assert "[auth]" in _texts(app.error)
    assert not app.chat_input and not app.sidebar.radio


@pytest.mark.parametrize("address", ["0.0.0.0", "192.168.1.5", None, ""])
def test_login_problem_for_every_address_beyond_loopback(address: str | None) -> None:
    assert login_problem(address, auth=False)
    assert login_problem(address, auth=True) is None
    for local in ("127.0.0.1", "localhost", "::1"):
        assert login_problem(local, auth=False) is None


def test_movieagent_ui_refuses_all_interfaces_without_auth(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    started: list[list[str]] = []
    monkeypatch.setattr(ui.cli, "run_supervised", lambda cmd: started.append(cmd) or 0)
    monkeypatch.setattr(ui.cli, "secrets_files", lambda: secrets_files(tmp_path, tmp_path))
    refused = CliRunner().invoke(cli_app, ["ui", "--address", "0.0.0.0"])
    assert refused.exit_code == 2
    assert "no sign-in is configured" in " ".join(refused.output.split())
    assert started == []
    assert CliRunner().invoke(cli_app, ["ui"]).exit_code == 0  # loopback: the local user
    (tmp_path / ".streamlit").mkdir()
    (tmp_path / ".streamlit" / "secrets.toml").write_text(
        '[auth]\nredirect_uri = "https://x/oauth2callback"\ncookie_secret = "s"\n'
    )
    assert has_auth_section(secrets_files(tmp_path, tmp_path))
    assert CliRunner().invoke(cli_app, ["ui", "--address", "0.0.0.0"]).exit_code == 0
    assert len(started) == 2


def test_with_auth_nobody_gets_in_without_signing_in(
    writable_graph: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    harness.current = harness.scripted(writable_graph, ScriptedLLM(), [recommender()])
    _signed_in(monkeypatch, None)
    at = _with_auth()
    at.run()
    assert not at.exception
    assert [b.label for b in at.button] == ["Sign in"]
    assert not at.chat_input


def test_each_signed_in_person_gets_their_own_user(
    writable_graph: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    harness.current = harness.scripted(writable_graph, ScriptedLLM(), [recommender()])
    ids = []
    for sub in ("alice", "bob", "alice"):
        _signed_in(
            monkeypatch,
            {"is_logged_in": True, "iss": "https://issuer", "sub": sub, "email": f"{sub}@x.org"},
        )
        at = _with_auth()
        at.run()
        assert not at.exception
        session = at.session_state[f"session:oidc:https://issuer|{sub}"]
        assert f"{sub}\\@x.org" in _texts(at.sidebar.caption)
        assert at.button(key="logout")
        ids.append(session.user_id)
    assert ids[0] == ids[2] != ids[1]
    assert account_user_id(writable_graph, LOCAL_ACCOUNT) not in ids
