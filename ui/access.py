"""Whether the app may serve an address without a sign-in: only loopback may.

Used before Streamlit starts (`movieagent ui`) and by the page itself (`ui.identity`), so the
rule lives here, without importing Streamlit.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

LOOPBACK = frozenset({"localhost", "::1"})
NO_LOGIN = (
    "This app listens on {address} where other machines can reach it, and no sign-in is "
    "configured: add an [auth] section to .streamlit/secrets.toml (see docs/production.md), "
    "or run it on 127.0.0.1 with `movieagent ui`."
)


def is_loopback(address: str | None) -> bool:
    """True for an address only this machine reaches; None or "" is every interface."""
    return bool(address) and (address in LOOPBACK or str(address).startswith("127."))


def login_problem(address: str | None, auth: bool) -> str | None:
    """The sentence that keeps the app closed, or None when it may serve this address."""
    if auth or is_loopback(address):
        return None
    return NO_LOGIN.format(address=address or "every interface")


def secrets_files(cwd: Path | None = None, home: Path | None = None) -> list[Path]:
    """Where Streamlit reads `secrets.toml` by default: the user's folder, then the working one."""
    return [
        (home or Path.home()) / ".streamlit" / "secrets.toml",
        (cwd or Path.cwd()) / ".streamlit" / "secrets.toml",
    ]


def has_auth_section(files: list[Path]) -> bool:
    """True when one of the secrets files has a non-empty `[auth]` table."""
    for path in files:
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except (OSError, tomllib.TOMLDecodeError):
            continue
        if isinstance(data.get("auth"), dict) and data["auth"]:
            return True
    return False
