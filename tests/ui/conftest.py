"""AppTest runs the real page in this process; `harness.current` hands it the scripted clients."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from tests.ui import harness
from ui import identity

SCRIPT = Path(__file__).with_name("scripted_app.py")


@pytest.fixture
def app(monkeypatch: pytest.MonkeyPatch) -> Iterator[AppTest]:
    """The page as `movieagent ui` serves it: on loopback, so the local user is at the keyboard
    (AppTest has no server; Streamlit's default address would be every interface)."""
    monkeypatch.setattr(identity, "listen_address", lambda: "127.0.0.1")
    yield AppTest.from_file(str(SCRIPT), default_timeout=60)
    harness.current = None
