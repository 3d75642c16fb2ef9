"""Bad input is reported, never silently dropped: every skipped row is counted with its place."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Problem:
    file: str
    line: int
    reason: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.reason}"


@dataclass
class Problems:
    """All problems are counted; the first `keep` per file are kept for the report."""

    keep: int = 50
    items: list[Problem] = field(default_factory=list)
    counts: Counter[str] = field(default_factory=Counter)

    def add(self, file: str, line: int, reason: str) -> None:
        self.counts[file] += 1
        if self.counts[file] <= self.keep:
            self.items.append(Problem(file, line, reason))

    @property
    def total(self) -> int:
        return sum(self.counts.values())
