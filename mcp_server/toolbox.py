"""The tools, built once, and each caller's session: the local user's, or each token's user's.

The local user (stdio, or HTTP on loopback without tokens) is `--user-id` or a guest; a guest
gets a new user id the first time they rate a movie (the tool reports it in
`ToolResult.new_user_id`) and the toolbox switches the local session to it for the life of the
process. Over HTTP with tokens each token's user has a session of their own. Calls run one at a
time (each is a few graph queries), in a worker thread so the event loop keeps serving.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from semantic_layer.errors import ToolArgumentsError
from semantic_layer.graph import Graph
from semantic_layer.session import Session
from semantic_layer.tools import Tool, ToolContext, ToolResult, build_tools
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
        self.local = local or Session()
        self.tools = {t.name: t for t in build_tools(folders)}
        self._lock = threading.Lock()

    def locked[T](self, work: Callable[..., T], *args: Any) -> T:
        """`work(*args)` while no tool runs (one graph query at a time, as for the tools)."""
        with self._lock:
            return work(*args)

    def listing(self) -> list[Tool[Any]]:
        return list(self.tools.values())

    def call(
        self, user_id: int | None, name: str, arguments: Mapping[str, Any]
    ) -> ToolResult | str:
        """Run tool `name` for `user_id` (None: the local user): its result, or why it did not run."""
        with self._lock:
            tool = self.tools.get(name)
            if tool is None:
                return f"There is no tool {name!r}; the tools are: {', '.join(self.tools)}."
            context = ToolContext(self.graph, self._session(user_id))
            try:
                parsed = tool.parse(dict(arguments))
                parsed = tool.check(parsed, context)  # names linked to the graph, as the agent's
            except ToolArgumentsError as e:
                return f"Invalid arguments for {name}: {e}."
            try:
                result = tool.run(parsed, context)
            except Exception as e:  # a bug or a lost graph: a sentence, and the trace in the log
                log.exception("tool %s failed", name)
                return f"{name} failed: {e}. The server log has the details."
            if user_id is None and result.new_user_id is not None:  # the local guest got an id
                self.local = replace(self.local, user_id=result.new_user_id)
            return result

    def _session(self, user_id: int | None) -> Session:
        if user_id is None:
            return self.local
        # A MovieLens user named in the tokens file is a read-only demo, as everywhere else.
        return Session(user_id=user_id, read_only=is_movielens_user(user_id))
