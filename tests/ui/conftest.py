"""AppTest runs the real page in this process; `harness.current` hands it the scripted clients."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from tests.ui import harness

SCRIPT = Path(__file__).with_name("scripted_app.py")


@pytest.fixture
def app() -> Iterator[AppTest]:
    yield AppTest.from_file(str(SCRIPT), default_timeout=60)
    harness.current = None
