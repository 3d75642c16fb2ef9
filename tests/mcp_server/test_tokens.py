"""The tokens file of the HTTP transport: every mistake is a sentence naming the file."""

from __future__ import annotations

from pathlib import Path

import anyio
import pytest
from typer.testing import CliRunner

from mcp_server.auth import TokenFileError, TokenUsers, read_tokens
from mcp_server.transports import http_problem, is_loopback
from movieagent.cli import app

GOOD = "0123456789abcdef0123"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("not json", "is not JSON"),
        ("[]", "non-empty JSON object"),
        ("{}", "non-empty JSON object"),
        ('{"short": 10000001}', "too short or has spaces"),
        (f'{{"{GOOD}": "alice"}}', "must be a number"),
        (f'{{"{GOOD}": true}}', "must be a number"),
    ],
)
def test_a_bad_tokens_file_is_explained(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "tokens.json"
    path.write_text(text)
    with pytest.raises(TokenFileError, match=message) as caught:
        read_tokens(path)
    assert str(path) in str(caught.value)


def test_tokens_map_to_their_users(tmp_path: Path) -> None:
    path = tmp_path / "tokens.json"
    path.write_text(f'{{"{GOOD}": 10000001, "{GOOD}x": 42}}')
    tokens = read_tokens(path)
    verifier = TokenUsers(tokens)
    token = anyio.run(verifier.verify_token, GOOD + "x")
    assert token is not None and token.subject == "42"
    assert anyio.run(verifier.verify_token, GOOD[:-1]) is None


def test_only_loopback_may_go_without_tokens() -> None:
    assert is_loopback("127.0.0.1") and is_loopback("localhost") and is_loopback("::1")
    assert not is_loopback("0.0.0.0") and not is_loopback("10.0.0.5")
    assert http_problem("127.0.0.1", None) is None
    assert http_problem("0.0.0.0", {GOOD: 1}) is None
    assert "without bearer tokens" in (http_problem("0.0.0.0", None) or "")


def test_cli_refuses_tokens_with_a_user_id_or_over_stdio(tmp_path: Path) -> None:
    path = tmp_path / "tokens.json"
    path.write_text(f'{{"{GOOD}": 10000001}}')
    runner = CliRunner()
    both = runner.invoke(
        app, ["mcp", "--transport", "http", "--tokens", str(path), "--user-id", "1"]
    )
    assert both.exit_code == 2 and "leave out --user-id" in both.output
    stdio = runner.invoke(app, ["mcp", "--tokens", str(path)])
    assert stdio.exit_code == 2 and "--tokens is for --transport http" in stdio.output
    path.write_text("{}")
    bad = runner.invoke(app, ["mcp", "--transport", "http", "--tokens", str(path)])
    assert bad.exit_code == 2 and "non-empty JSON object" in bad.output


def test_tokens_never_print(tmp_path: Path) -> None:
    path = tmp_path / "tokens.json"
    path.write_text(f'{{"{GOOD}": 10000001}}')
    tokens = read_tokens(path)
    verifier = TokenUsers(tokens)
    assert GOOD not in repr(tokens) + repr(vars(verifier))
    assert list(tokens.values()) == [10000001]


def test_the_query_trace_is_never_offered_over_http() -> None:
    result = CliRunner().invoke(app, ["mcp", "--transport", "http", "--show-queries"])
    assert result.exit_code == 2 and "remote callers never see the queries" in result.output
