"""`movieagent eval` ordering: `--spread` goes round-robin over categories."""

from __future__ import annotations

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
