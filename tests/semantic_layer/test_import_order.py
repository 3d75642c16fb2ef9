"""Each layer imports on its own: no upward arrow makes a first import fail."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.conftest import REPO


@pytest.mark.parametrize(
    "statement",
    [
        "from semantic_layer.resolve import resolve_movie, Candidate",
        "from semantic_layer.resolve.people import resolve_person",
        "from semantic_layer.tools.result import Candidate",
    ],
)
def test_resolution_imports_first_in_a_fresh_interpreter(statement: str) -> None:
    done = subprocess.run(
        [sys.executable, "-c", f"{statement}; print('ok')"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "ok"


def test_the_candidate_resolution_raises_is_the_one_tools_return() -> None:
    from semantic_layer.resolve import Candidate as Resolved
    from semantic_layer.tools import Candidate as Returned

    assert Resolved is Returned
