"""Sorting HTTP client failures into "retry" and "tell the user what to start"."""

from __future__ import annotations

from agent.errors import AgentError, LLMUnavailableError
from agent.llm.base import LLMTransientError

_CONNECT_ERRORS = {"ConnectError", "ConnectionRefusedError", "NewConnectionError", "gaierror"}


def is_connection_failure(error: BaseException) -> bool:
    """Nothing listens there (refused, unknown host), anywhere in the exception chain."""
    seen: BaseException | None = error
    while seen is not None:
        if any(cls.__name__ in _CONNECT_ERRORS for cls in type(seen).__mro__):
            return True
        seen = seen.__cause__ or seen.__context__
    return False


def from_status(status: int, what: str, detail: str) -> AgentError:
    """429 and 5xx are worth retrying; any other refusal is for the user to fix."""
    detail = " ".join(detail.split())[:300]
    if status == 429 or status >= 500:
        return LLMTransientError(f"HTTP {status} from {what}: {detail}")
    return LLMUnavailableError(f"{what} refused the request (HTTP {status}): {detail}")
