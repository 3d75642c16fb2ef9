"""What an import did: rows read, written and skipped per phase, time per phase, problems.

`written` counts the nodes and edges a phase wrote, broken down by label or type in `details`.
On the bulk path the reading phases only gather rows and `build` writes them all; each phase
still shows what the build wrote for it, and `build` shows the total.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rich.console import Console
from rich.table import Table

from data_import.problems import Problems

_NUMBERS = ("read", "written", "skipped", "seconds")


@dataclass
class PhaseStats:
    name: str
    read: int = 0
    written: int = 0
    skipped: int = 0
    seconds: float = 0.0
    details: dict[str, int] = field(default_factory=dict)

    def wrote(self, what: str, count: int) -> int:
        """Count `count` nodes or edges of label/type `what` as written by this phase."""
        self.details[what] = self.details.get(what, 0) + count
        self.written += count
        return count


@dataclass
class ImportReport:
    source: str
    backend: str
    phases: list[PhaseStats] = field(default_factory=list)
    problems: Problems = field(default_factory=Problems)
    notes: list[str] = field(default_factory=list)
    unmatched_enrichment: list[int] = field(default_factory=list)
    derived: dict[str, Any] = field(default_factory=dict)
    indexes_pending: list[str] | None = None  # None: not checked; []: all ready
    app_users: dict[str, Any] | None = None  # bulk path: the app users kept across the rebuild

    def phase(self, name: str) -> PhaseStats:
        stats = PhaseStats(name)
        self.phases.append(stats)
        return stats

    @property
    def seconds(self) -> float:
        return sum(p.seconds for p in self.phases)

    def to_dict(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "backend": self.backend,
            "seconds": round(self.seconds, 3),
            "phases": [{**vars(p), "seconds": round(p.seconds, 3)} for p in self.phases],
            "problems": {
                "total": self.problems.total,
                "by_file": dict(self.problems.counts),
                "first": [str(p) for p in self.problems.items],
            },
            "notes": self.notes,
            "unmatched_enrichment_movie_ids": len(self.unmatched_enrichment),
            "derived": self.derived,
            "indexes": {
                "ready": self.indexes_pending == [],
                "pending": self.indexes_pending or [],
            },
            "app_users": self.app_users,
        }

    def print(self, console: Console) -> None:
        table = Table(title=f"Import of {self.source} into {self.backend}")
        for column in ("phase", "read", "written", "skipped", "seconds", "written: what"):
            table.add_column(column, justify="right" if column in _NUMBERS else "left")
        for p in self.phases:
            what = ", ".join(f"{n:,} {k}" for k, n in p.details.items() if n)
            table.add_row(
                p.name, f"{p.read:,}", f"{p.written:,}", f"{p.skipped:,}", f"{p.seconds:.2f}", what
            )
        table.add_row("total", "", "", "", f"{self.seconds:.2f}", "", style="bold")
        console.print(table)
        for note in self.notes:
            console.print(f"note: {note}")
        if self.problems.total:
            console.print(f"[yellow]{self.problems.total:,} rows skipped:[/yellow]")
            for problem in self.problems.items:
                console.print(f"  {problem}")
            hidden = self.problems.total - len(self.problems.items)
            if hidden:
                console.print(f"  … and {hidden:,} more (see --json for counts per file)")
