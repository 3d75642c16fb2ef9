"""What every tool returns: text for the model, structured data for the UI, and a trace."""

from __future__ import annotations

import json
from typing import Any, Literal

from pydantic import BaseModel, Field

from semantic_layer.resolve.candidate import Candidate
from semantic_layer.tools.payloads import Payload, for_the_model

__all__ = ["Candidate", "Payload", "QueryTrace", "ResultKind", "ToolResult"]

ResultKind = Literal[
    "recommendations", "movie", "person", "rating", "ratings", "candidates", "rows", "text", "error"
]


class QueryTrace(BaseModel):
    """One Cypher query a tool ran: what, with which parameters, how many rows, how long."""

    name: str
    cypher: str
    params: dict[str, Any] = Field(default_factory=dict)
    rows: int = 0
    ms: float = 0.0
    mode: Literal["read", "write"] = "read"


class ToolResult(BaseModel):
    """A tool's answer. `ok=False` with `kind='candidates'` asks the user to choose."""

    tool: str
    ok: bool = True
    kind: ResultKind = "text"
    message: str = ""
    #: a typed card for the built-in tools (`semantic_layer.tools.payloads`), rows for declared ones
    data: Payload | None = None
    candidates: list[Candidate] = Field(default_factory=list)
    queries: list[QueryTrace] = Field(default_factory=list)
    #: set when this call gave a guest a user id of their own: the front end switches to it
    new_user_id: int | None = None
    #: a name typed for a movie or person that nothing in the graph is called (not found, or
    #: only look-alikes offered): the caller may try the film's English title or its spelling
    unmatched: str | None = None

    def plain_data(self) -> Any:
        """`data` as plain dicts and lists, under the keys the model reads."""
        return None if self.data is None else self.data.model_dump()

    def model_data(self) -> Any:
        """`data` as the model reads it: `plain_data` less what no answer needs."""
        return None if self.data is None else for_the_model(self.data)

    def observation(self) -> str:
        """Compact JSON the model reads as the Observation."""
        body: dict[str, Any] = {"ok": self.ok}
        if self.message:
            body["message"] = self.message
        if self.data is not None:
            body["data"] = self.plain_data()
        if self.candidates:
            body["candidates"] = [c.model_dump(exclude_none=True) for c in self.candidates]
        return json.dumps(body, ensure_ascii=False, default=str)
