"""What resolution offers when it cannot pick: a movie or person the user may have meant.

It lives here, below the tools, because resolution raises it and the tools only pass it on
(`semantic_layer.tools.result` re-exports it)."""

from __future__ import annotations

from pydantic import BaseModel


class Candidate(BaseModel):
    """A movie or person that might be what the user meant."""

    label: str
    title: str | None = None
    name: str | None = None
    year: int | None = None
    movie_id: int | None = None
