"""What an import did: rows read, written and skipped per phase, time per phase, problems."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rich.console import Console
from rich.table import Table

from data_import.problems import Problems


@dataclass
class PhaseStats:
    name: str
    read: int = 0
    written: int = 0
    skipped: int = 0
    seconds: float = 0.0


@dataclass
class ImportReport:
    source: str
    backend: str
    phases: list[PhaseStats] = field(default_factory=list)
    problems: Problems = field(default_factory=Problems)
    notes: list[str] = field(default_factory=list)
    unmatched_enrichment: list[int] = field(default_factory=list)
    derived: dict[str, Any] = field(default_factory=dict)

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
        }

    def print(self, console: Console) -> None:
        table = Table(title=f"Import of {self.source} into {self.backend}")
        for column in ("phase", "read", "written", "skipped", "seconds"):
            table.add_column(column, justify="left" if column == "phase" else "right")
        for p in self.phases:
            table.add_row(
                p.name, f"{p.read:,}", f"{p.written:,}", f"{p.skipped:,}", f"{p.seconds:.2f}"
            )
        table.add_row("total", "", "", "", f"{self.seconds:.2f}", style="bold")
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
