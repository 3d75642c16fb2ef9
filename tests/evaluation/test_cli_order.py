"""`movieagent eval` ordering: `--spread` goes round-robin over categories."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from evaluation.cli import round_robin
from evaluation.questions import Question


def test_round_robin_covers_every_category_early(tiny_set: list[Question]) -> None:
    ordered = round_robin(tiny_set)
    assert [q.id for q in ordered] == ["q1", "q2", "q5", "q4", "q3"]
    assert sorted(q.id for q in ordered) == sorted(q.id for q in tiny_set)


def test_a_cut_short_run_is_compared_on_the_questions_both_finished() -> None:
    from evaluation.cli import finished_by_all
    from evaluation.outcome import Outcome

    def outcome(subject: str, qid: str) -> Outcome:
        return Outcome(id=qid, category="info", language="en", subject=subject)

    runs = finished_by_all(
        [outcome("agent", "q1"), outcome("baseline", "q1"), outcome("agent", "q2")]
    )
    assert {name: [o.id for o in found] for name, found in runs.items()} == {
        "agent": ["q1"],
        "baseline": ["q1"],
    }


def test_runs_of_one_subject_each_are_reported_side_by_side(
    tiny_set_path: Path, tmp_path: Path
) -> None:
    """`--subject baseline` alone, then `--outcomes agent.jsonl --outcomes baseline.jsonl`."""
    from typer.testing import CliRunner

    from evaluation.outcome import Outcome

    def write(subject: str, ids: list[str]) -> Path:
        path = tmp_path / f"{subject}.jsonl"
        lines = [
            Outcome(id=i, category="info", language="en", subject=subject).model_dump_json()
            for i in ids
        ]
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        return path

    agent, baseline = write("agent", ["q1", "q2"]), write("baseline", ["q1"])
    args = ["--set", str(tiny_set_path), "--outcomes", str(agent), "--outcomes", str(baseline)]
    result = CliRunner().invoke(_app(), ["eval", *args, "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["meta"]["questions"] == 1  # q1: the only one both finished
    assert set(report["subjects"]) == {"agent", "baseline"}


def test_subject_names_default_to_the_agent_and_reject_unknown_ones() -> None:
    import typer

    from evaluation.cli import _subject_names

    assert _subject_names(None, baseline=False) == ["agent"]
    assert _subject_names(None, baseline=True) == ["agent", "baseline"]
    assert _subject_names(["baseline"], baseline=False) == ["baseline"]
    assert _subject_names(["baseline", "agent"], baseline=False) == ["agent", "baseline"]
    with pytest.raises(typer.Exit):
        _subject_names(["langchain"], baseline=False)


def _app() -> Any:
    import typer

    from evaluation.cli import register

    app = typer.Typer()
    register(app)
    app.command("noop")(lambda: None)  # two commands: typer keeps `eval` as a subcommand name
    return app
