"""A short run of the reliability soak (`python -m benchmarks.soak` runs it longer): users in
parallel processes rate, forget, re-read and reconnect; then the server is killed and nothing
acknowledged may be missing or under the wrong user."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.soak import run


def test_a_short_soak_loses_and_misattributes_nothing(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(users=2, seconds=3, data_dir=data_dir, crash=True) == 0, capsys.readouterr().out
    out = capsys.readouterr().out
    assert "lost ratings: 0; misattributed: 0" in out and "just before the kill: kept" in out
