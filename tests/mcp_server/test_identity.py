"""One person, one id: guests, logins and token holders on one graph never share a user id, also
across a restart of the server and an import (the allocator skips every reserved id)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from data_import.importer import ImportOptions, import_release
from movieagent.cli import app
from semantic_layer.session import Session
from semantic_layer.users import FIRST_GUEST_USER_ID, account_user_id, user_record
from tests.semantic_layer.bound import bound_tools

TOKEN_USERS = [10_000_001, 10_000_003, FIRST_GUEST_USER_ID + 2]  # the README's ids, and one above


@pytest.fixture
def started(writable_graph: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    """`movieagent mcp --transport http --tokens FILE` started and stopped, on `writable_graph`."""
    tokens = tmp_path / "tokens.json"
    tokens.write_text(json.dumps({f"token-{uid}-0123456789abcdef": uid for uid in TOKEN_USERS}))
    monkeypatch.setattr("mcp_server.transports.serve_http", lambda *a, **k: None)
    settings = writable_graph.settings
    env = {"MOVIEAGENT_DATA_DIR": str(settings.data_dir), "MOVIEAGENT_GRAPH": settings.graph_name}

    def start(*args: str) -> None:
        command = ["mcp", "--transport", "http", "--port", "0", *args]
        result = CliRunner().invoke(app, command, env=env)
        assert result.exit_code == 0, result.output

    start("--tokens", str(tokens))
    start.tokens = tokens  # type: ignore[attr-defined]
    return start


def _guest(graph: Any) -> int:
    result = bound_tools(graph, Session())["memory"].invoke({"movie": "Heat", "rating": 4})
    assert result.new_user_id is not None
    return int(result.new_user_id)


def test_no_two_people_share_an_id(
    started: Any, writable_graph: Any, ml_small: Path, enriched_csv: Path
) -> None:
    people: list[int] = []
    people += [_guest(writable_graph) for _ in range(4)]
    people.append(account_user_id(writable_graph, "oidc:https://issuer|alice"))
    started("--tokens", str(started.tokens))  # a restart
    people += [_guest(writable_graph) for _ in range(2)]
    people.append(account_user_id(writable_graph, "oidc:https://issuer|bob"))
    import_release(
        writable_graph, ml_small, enriched_csv, ImportOptions(show_progress=False, bulk=True)
    )
    for uid in TOKEN_USERS:  # the reservations outlive the import
        record = user_record(writable_graph, uid)
        assert record is not None and record["account"] is None
    people += [_guest(writable_graph) for _ in range(2)]
    started("--tokens", str(started.tokens))
    people.append(account_user_id(writable_graph, "oidc:https://issuer|carol"))
    people += TOKEN_USERS
    assert len(people) == len(set(people)), people
    assert account_user_id(writable_graph, "oidc:https://issuer|alice") in people  # the same one


def test_a_token_for_a_signed_in_persons_id_is_refused(
    started: Any, writable_graph: Any, tmp_path: Path
) -> None:
    alice = account_user_id(writable_graph, "oidc:https://issuer|alice")
    tokens = tmp_path / "theirs.json"
    tokens.write_text(json.dumps({"a-token-of-alice-0123456789": alice}))
    settings = writable_graph.settings
    env = {"MOVIEAGENT_DATA_DIR": str(settings.data_dir), "MOVIEAGENT_GRAPH": settings.graph_name}
    command = ["mcp", "--transport", "http", "--tokens", str(tokens)]
    result = CliRunner().invoke(app, command, env=env)
    assert result.exit_code == 2 and "signs in to the app" in result.output


def test_the_examples_user_id_works_on_a_new_data_folder(
    writable_graph: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("mcp_server.transports.serve_stdio", lambda *a, **k: None)
    settings = writable_graph.settings
    env = {"MOVIEAGENT_DATA_DIR": str(settings.data_dir), "MOVIEAGENT_GRAPH": settings.graph_name}
    result = CliRunner().invoke(app, ["mcp", "--user-id", "10000001"], env=env)
    assert result.exit_code == 0, result.output
    assert user_record(writable_graph, 10_000_001) is not None
    assert _guest(writable_graph) >= FIRST_GUEST_USER_ID
