"""The engine does not depend on its harness: no runtime package imports `evaluation` or `benchmarks`."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.conftest import REPO

ENGINE = ["agent", "semantic_layer", "data_import", "ui", "mcp_server"]
ROOMS = {"evaluation", "benchmarks"}


def _imported_roots(path: Path) -> set[str]:
    roots: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            roots |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            roots.add(node.module.split(".")[0])
    return roots


@pytest.mark.parametrize("package", ENGINE)
def test_the_engine_never_imports_the_harness(package: str) -> None:
    offenders = {
        str(path.relative_to(REPO)): sorted(_imported_roots(path) & ROOMS)
        for path in sorted((REPO / package).rglob("*.py"))
        if _imported_roots(path) & ROOMS
    }
    assert not offenders
