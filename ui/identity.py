"""Who is at the page: a person signed in with Streamlit's OIDC login, or the local user.

- `[auth]` in `.streamlit/secrets.toml` (see docs/production.md): everybody signs in with
  `st.login`; the OIDC issuer and subject name the person's account.
- No `[auth]`, and the app listens on loopback only (`movieagent ui`, `make run`): the person at
  the keyboard is the one local user.
- No `[auth]`, and the app listens beyond loopback: nobody gets in; the page says what to set.

`ui.sidebar` then binds the account to its one app user (`semantic_layer.users.account_user_id`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import streamlit as st

from semantic_layer.user_policy import LOCAL_ACCOUNT
from ui.access import login_problem


@dataclass(frozen=True)
class Person:
    account: str  # LOCAL_ACCOUNT, or "oidc:ISSUER|SUBJECT"
    name: str
    signed_in: bool = False  # through OIDC (offers "Sign out")


def auth_config() -> Mapping[str, Any] | None:
    """The `[auth]` section of the secrets, or None when there is none."""
    try:
        section = st.secrets.get("auth")
    except FileNotFoundError:  # no secrets file at all (StreamlitSecretNotFoundError)
        return None
    return section if isinstance(section, Mapping) and section else None


def listen_address() -> str | None:
    """The address the server listens on (None: every interface, Streamlit's default)."""
    address = st.get_option("server.address")
    return str(address) if address else None


def signed_in_user() -> Mapping[str, Any] | None:
    """The OIDC claims of the person signed in to this browser session, or None."""
    user = st.user
    return user.to_dict() if user.get("is_logged_in") else None


def current_person() -> Person:
    """The person at the page; draws the sign-in page (or the refusal) and stops otherwise."""
    auth = auth_config()
    problem = login_problem(listen_address(), auth is not None)
    if problem:
        st.error(problem)
        st.stop()
    if auth is None:
        return Person(account=LOCAL_ACCOUNT, name="you, at this computer")
    claims = signed_in_user()
    if claims is None or not claims.get("sub"):
        _sign_in_page(auth)
        st.stop()
    name = str(claims.get("email") or claims.get("name") or claims["sub"])
    return Person(account=account_of(claims), name=name, signed_in=True)


def account_of(claims: Mapping[str, Any]) -> str:
    """The account an OIDC identity maps to: issuer and subject, unique together per the spec."""
    return f"oidc:{claims.get('iss') or ''}|{claims['sub']}"


def _sign_in_page(auth: Mapping[str, Any]) -> None:
    st.title(":material/movie: movieagent")
    st.write("Sign in to ask about movies and keep your own ratings.")
    providers = [name for name, value in auth.items() if isinstance(value, Mapping)]
    if "client_id" in auth or not providers:
        st.button("Sign in", key="login", on_click=st.login, type="primary")
    for name in providers:
        st.button(f"Sign in with {name}", key=f"login-{name}", on_click=st.login, args=(name,))
