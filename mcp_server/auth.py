"""Bearer tokens for the HTTP transport: a JSON file that maps each token to a user id.

    {"a-long-random-token": 10000001, "another-token": 42}

Pass it with `--tokens FILE` or `MOVIEAGENT_MCP_TOKENS=FILE`. A request without a known token
gets 401 before any tool runs; a known one acts as its user, whatever the arguments say.
"""

from __future__ import annotations

import hmac
import json
from collections.abc import Mapping
from pathlib import Path

from mcp.server.auth.provider import AccessToken, TokenVerifier
from pydantic import SecretStr

TOKENS_ENV = "MOVIEAGENT_MCP_TOKENS"
SCOPE = "movieagent"
MIN_TOKEN_LENGTH = 16
# {token: user id}; tokens as read from the file are `SecretStr`, tests may pass plain strings
Tokens = Mapping[SecretStr, int] | Mapping[str, int]


class TokenFileError(ValueError):
    """The tokens file is missing or malformed; the text names the file and what to fix."""


def read_tokens(path: Path) -> dict[SecretStr, int]:
    """The tokens file as {token: user id}; the tokens are `SecretStr`, so they never print."""
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except OSError as e:
        raise TokenFileError(f"Cannot read the tokens file {path}: {e.strerror or e}.") from e
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise TokenFileError(
            f'{path} is not JSON: write an object like {{"a-long-random-token": 10000001}}.'
        ) from e
    if not isinstance(raw, dict) or not raw:
        raise TokenFileError(
            f'{path} must hold a non-empty JSON object like {{"a-long-random-token": 10000001}}.'
        )
    tokens: dict[SecretStr, int] = {}
    for token, user_id in raw.items():
        if len(token) < MIN_TOKEN_LENGTH or not token.isprintable() or " " in token:
            raise TokenFileError(
                f"{path}: token {token[:4]!r}… is too short or has spaces: use "
                f"{MIN_TOKEN_LENGTH} or more printable characters (`openssl rand -hex 32`)."
            )
        if isinstance(user_id, bool) or not isinstance(user_id, int):
            raise TokenFileError(f"{path}: the user of token {token[:4]!r}… must be a number.")
        tokens[SecretStr(token)] = user_id
    return tokens


class TokenUsers(TokenVerifier):
    """Known tokens, compared in constant time; each stands for one user."""

    def __init__(self, tokens: Tokens) -> None:
        self._tokens = [(_secret(known), user_id) for known, user_id in tokens.items()]

    async def verify_token(self, token: str) -> AccessToken | None:
        for known, user_id in self._tokens:
            if hmac.compare_digest(known.get_secret_value().encode(), token.encode()):
                return AccessToken(
                    token=token,
                    client_id=f"movieagent-user-{user_id}",
                    scopes=[SCOPE],
                    subject=str(user_id),
                )
        return None


def _secret(token: SecretStr | str) -> SecretStr:
    return token if isinstance(token, SecretStr) else SecretStr(token)
