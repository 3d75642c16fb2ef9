"""Named Cypher queries loaded from the `cypher/` folder, with per-backend overrides."""

from __future__ import annotations

import re
from functools import cache
from importlib import resources
from pathlib import Path
from typing import get_args

from semantic_layer.errors import QueryNotFoundError
from semantic_layer.settings import Backend

BACKENDS = get_args(Backend)
_NAME = re.compile(r"^[a-z0-9_]+(/[a-z0-9_]+)*$")


def default_cypher_root() -> Path:
    """The installed `cypher` package folder."""
    return Path(str(resources.files("cypher")))


class QueryLibrary:
    """Looks up `NAME` as `<root>/<backend>/NAME.cypher`, then `<root>/NAME.cypher`."""

    def __init__(self, backend: str, root: Path | None = None) -> None:
        if backend not in BACKENDS:
            raise ValueError(f"unknown backend {backend!r}; expected one of {BACKENDS}")
        self.backend = backend
        self.root = root or default_cypher_root()

    def path(self, name: str) -> Path:
        if not _NAME.match(name):
            raise QueryNotFoundError(
                f"{name!r} is not a query name: use lower-case words and '/' like 'import/movies'."
            )
        for candidate in (
            self.root / self.backend / f"{name}.cypher",
            self.root / f"{name}.cypher",
        ):
            if candidate.is_file():
                return candidate
        raise QueryNotFoundError(
            f"No Cypher file for query {name!r}: expected {self.root / name}.cypher "
            f"or {self.root / self.backend / name}.cypher."
        )

    def get(self, name: str) -> str:
        return _read(self.path(name))

    def names(self, folder: str) -> list[str]:
        """Query names under `folder` visible to this backend (shared plus overrides), sorted."""
        found: set[str] = set()
        for base in (self.root / folder, self.root / self.backend / folder):
            if base.is_dir():
                found.update(f"{folder}/{p.stem}" for p in base.glob("*.cypher"))
        return sorted(found)


@cache
def _read(path: Path) -> str:
    return path.read_text(encoding="utf-8").strip()
