"""The Dockerfile and `.dockerignore`, read for the checks in `test_compose.py` (no engine here).

`dockerfile_stages()` splits the Dockerfile into its build stages, each with its instructions.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from tests.deploy.compose_check import REPO

DOCKERFILE = REPO / "Dockerfile"
DOCKERIGNORE = REPO / ".dockerignore"


@dataclass
class Stage:
    base: str
    name: str | None
    instructions: list[tuple[str, str]]


def dockerfile_stages(text: str) -> list[Stage]:
    """The build stages, each with its (INSTRUCTION, arguments) list; continuations joined and
    ARGs declared before the first FROM substituted into the FROM lines."""
    joined = re.sub(r"\\\n", " ", text)
    global_args: dict[str, str] = {}
    stages: list[Stage] = []
    for line in joined.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        keyword, _, args = line.partition(" ")
        keyword = keyword.upper()
        if keyword == "ARG" and not stages:
            name, _, default = args.strip().partition("=")
            global_args[name] = default.strip().strip("\"'")
        elif keyword == "FROM":
            args = re.sub(r"\$\{?(\w+)\}?", lambda m: global_args.get(m.group(1), m.group(0)), args)
            parts = [p for p in args.split() if not p.startswith("--platform")]
            name = parts[2] if len(parts) >= 3 and parts[1].upper() == "AS" else None
            stages.append(Stage(base=parts[0], name=name, instructions=[]))
        elif stages:
            stages[-1].instructions.append((keyword, args.strip()))
    return stages


def final_user(stage: Stage) -> str | None:
    users = [args for keyword, args in stage.instructions if keyword == "USER"]
    return users[-1] if users else None


def copied_sources(stages: Iterable[Stage]) -> set[str]:
    """Paths copied from the build context (COPY without --from), normalized without './'."""
    sources: set[str] = set()
    for stage in stages:
        for keyword, args in stage.instructions:
            if keyword not in ("COPY", "ADD"):
                continue
            parts = [p for p in args.split() if not p.startswith("--chown")]
            if any(p.startswith("--from") for p in parts):
                continue
            parts = [p for p in parts if not p.startswith("--")]
            for src in parts[:-1]:
                sources.add(src.removeprefix("./").rstrip("/"))
    return sources
