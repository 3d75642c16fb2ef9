"""Who is asking: bound by the application, never taken from LLM output."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Session:
    """The user a conversation belongs to. Tools read `user_id` from here only."""

    user_id: int
    display_name: str = ""
