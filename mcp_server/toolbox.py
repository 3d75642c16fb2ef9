"""The tools, bound to each user's own session: built once per user, then kept.

The local user (stdio, or HTTP on loopback without tokens) is `--user-id` or a guest; a guest
gets a new user id the first time they rate a movie and keeps it for the life of the process.
Over HTTP with tokens each token's user has a session of their own. Calls run one at a time
(each is a few graph queries), in a worker thread so the event loop keeps serving.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from langchain_core.tools import BaseTool
from pydantic import ValidationError

from semantic_layer.graph import Graph
from semantic_layer.session import Session
from semantic_layer.tools import GraphTool, ToolResult, build_tools
from semantic_layer.user_policy import is_movielens_user

log = logging.getLogger(__name__)


class ToolBox:
    def __init__(
        self,
        graph: Graph,
        *,
        local: Session | None = None,
        folders: Iterable[Path] | None = None,
    ) -> None:
        self.graph = graph
        self._folders = None if folders is None else list(folders)
        self.local = local or Session()
        self._sessions: dict[int, dict[str, BaseTool]] = {}
        self._local_tools = self._build(self.local)
        self._lock = threading.Lock()

    def listing(self) -> list[BaseTool]:
        return list(self._local_tools.values())

    def call(
        self, user_id: int | None, name: str, arguments: Mapping[str, Any]
    ) -> ToolResult | str:
        """Run tool `name` for `user_id` (None: the local user): its result, or why it did not run."""
        with self._lock:
            tools = self._tools_for(user_id)
            tool = tools.get(name)
            if tool is None:
                return f"There is no tool {name!r}; the tools are: {', '.join(tools)}."
            if isinstance(tool, GraphTool):
                try:
                    tool.input_model().model_validate(dict(arguments))
                except ValidationError as e:
                    return f"Invalid arguments for {name}: {_problems(e)}."
            try:
                result = tool.invoke(dict(arguments))
            except Exception as e:  # a bug or a lost graph: a sentence, and the trace in the log
                log.exception("tool %s failed", name)
                return f"{name} failed: {e}. The server log has the details."
            if not isinstance(result, ToolResult):  # pragma: no cover - every tool returns one
                return f"{name} returned no result."
            return result

    def _tools_for(self, user_id: int | None) -> dict[str, BaseTool]:
        if user_id is None:
            return self._local_tools
        if user_id not in self._sessions:
            # A MovieLens user named in the tokens file is a read-only demo, as everywhere else.
            session = Session(user_id=user_id, read_only=is_movielens_user(user_id))
            self._sessions[user_id] = self._build(session)
        return self._sessions[user_id]

    def _build(self, session: Session) -> dict[str, BaseTool]:
        return {t.name: t for t in build_tools(self.graph, session, folders=self._folders)}


def _problems(error: ValidationError) -> str:
    return "; ".join(
        f"{'.'.join(map(str, x['loc'])) or 'arguments'}: {x['msg']}" for x in error.errors()
    )
