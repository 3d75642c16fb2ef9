"""`movieagent eval` ordering: `--spread` goes round-robin over categories."""

from __future__ import annotations

from agent.evaluation.cli import round_robin
from agent.evaluation.questions import Question


def test_round_robin_covers_every_category_early(tiny_set: list[Question]) -> None:
    ordered = round_robin(tiny_set)
    assert [q.id for q in ordered] == ["q1", "q2", "q5", "q4", "q3"]
    assert sorted(q.id for q in ordered) == sorted(q.id for q in tiny_set)
