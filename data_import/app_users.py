"""Users the app created outlive a bulk rebuild of the graph.

App users have ids from `FIRST_APP_USER_ID` up (the eval harness's scratch users too), far above
any MovieLens id. Before the bulk path deletes the graph, `keep` reads them with their properties
and their RATED/TAGGED edges; after the build, `restore` writes them back with batched MERGE.
A rating or tag of a movie that is no longer in the release cannot be written back: it is
counted, shown in the report and saved to a JSON file, never dropped silently.

Before the build they are saved to `app-users-backup-*.json`, deleted once the import finished.
A backup still there at the next import is from an import that died: its users that the graph
lacks are written back (`read_backups`, `missing_from`) and the file is renamed `-recovered-`.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from data_import.batches import batched
from semantic_layer.graph import Graph
from semantic_layer.users import FIRST_APP_USER_ID

Row = dict[str, Any]


@dataclass
class KeptUsers:
    users: list[Row] = field(default_factory=list)
    ratings: list[Row] = field(default_factory=list)
    tags: list[Row] = field(default_factory=list)

    def only(self, user_ids: set[int]) -> KeptUsers:
        """These users and their ratings and tags."""
        return KeptUsers(*([r for r in rows if r["userId"] in user_ids]
                           for rows in (self.users, self.ratings, self.tags)))  # fmt: skip

    def plus(self, other: KeptUsers) -> KeptUsers:
        """These users, and those of `other` that are not among them (with their edges)."""
        known = {u["userId"] for u in self.users}
        extra = other.only({u["userId"] for u in other.users} - known)
        return KeptUsers(self.users + extra.users, self.ratings + extra.ratings,
                         self.tags + extra.tags)  # fmt: skip


@dataclass
class Restored:
    users: int = 0
    ratings: int = 0
    tags: int = 0
    lost: list[Row] = field(default_factory=list)  # edges naming a movie not in the release
    saved_to: Path | None = None

    def note(self) -> str:
        text = f"kept {self.users:,} app users with {self.ratings:,} ratings and {self.tags:,} tags"
        if self.lost:
            shown = "; ".join(
                f"user {r['userId']} → movie {r['movieId']} ({r['title']})" for r in self.lost[:5]
            )
            text += (
                f"; {len(self.lost):,} of their ratings/tags name a movie that is not in this "
                f"release and could not be written back (first: {shown}); all are saved in "
                f"{self.saved_to}"
            )
        return text

    def to_dict(self) -> dict[str, Any]:
        return {
            "users": self.users,
            "ratings": self.ratings,
            "tags": self.tags,
            "not_restored": len(self.lost),
            "saved_to": str(self.saved_to) if self.saved_to else None,
        }


def keep(graph: Graph) -> KeptUsers:
    """Read the app users and their edges (nothing when there is no graph yet)."""
    params = {"firstId": FIRST_APP_USER_ID}
    return KeptUsers(
        graph.read("import/app_users", params),
        graph.read("import/app_ratings", params),
        graph.read("import/app_tags", params),
    )


def restore(
    graph: Graph,
    kept: KeptUsers,
    movie_ids: set[int],
    batch_size: int,
    save_dir: Path | None = None,
) -> Restored:
    """Write the kept users back; edges to movies missing from `movie_ids` go to a JSON file."""
    ratings = [r for r in kept.ratings if r["movieId"] in movie_ids]
    tags = [t for t in kept.tags if t["movieId"] in movie_ids]
    for query, rows in (
        ("import/app_users_restore", kept.users),
        ("import/app_ratings_restore", ratings),
        ("import/app_tags_restore", tags),
    ):
        for batch in batched(rows, batch_size):
            graph.write(query, {"rows": batch})
    lost = [{**r, "type": "RATED"} for r in kept.ratings if r["movieId"] not in movie_ids]
    lost += [{**t, "type": "TAGGED"} for t in kept.tags if t["movieId"] not in movie_ids]
    restored = Restored(len(kept.users), len(ratings), len(tags), lost)
    if lost:
        restored.saved_to = _save(lost, save_dir or Path.cwd())
    return restored


def backup(kept: KeptUsers, folder: Path) -> Path:
    """Save the kept users to a file before the graph is deleted, in case the build fails."""
    rows = [{"type": "User", **u} for u in kept.users]
    rows += [{"type": "RATED", **r} for r in kept.ratings]
    rows += [{"type": "TAGGED", **t} for t in kept.tags]
    return _save(rows, folder, BACKUP_PREFIX)


BACKUP_PREFIX = "app-users-backup"
RECOVERED_PREFIX = "app-users-recovered"


def read_backups(folder: Path) -> tuple[KeptUsers, list[Path]]:
    """The users saved by imports that died before they were written back (the backup of a
    finished import is deleted), and the files they came from."""
    kept = KeptUsers()
    paths = sorted(folder.glob(f"{BACKUP_PREFIX}-*.json")) if folder.is_dir() else []
    for path in paths:
        rows = json.loads(path.read_text(encoding="utf-8"))
        part: dict[str, list[Row]] = {"User": [], "RATED": [], "TAGGED": []}
        for row in rows:
            part[row.pop("type")].append(row)
        kept = kept.plus(KeptUsers(part["User"], part["RATED"], part["TAGGED"]))
    return kept, paths


def missing_from(graph: Graph, kept: KeptUsers) -> KeptUsers:
    """The kept users the graph no longer has."""
    if not kept.users:
        return kept
    present = {r["userId"] for r in graph.read("import/app_users", {"firstId": FIRST_APP_USER_ID})}
    return kept.only({u["userId"] for u in kept.users} - present)


def mark_recovered(paths: list[Path]) -> None:
    """Backups whose users are in the graph again are renamed, never read again, kept."""
    for path in paths:
        if path.exists():
            path.rename(path.with_name(path.name.replace(BACKUP_PREFIX, RECOVERED_PREFIX, 1)))


def _save(rows: list[Row], folder: Path, prefix: str = "app-users-not-restored") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{prefix}-{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}.json"
    path.write_text(json.dumps(rows, indent=1, default=str), encoding="utf-8")
    return path
