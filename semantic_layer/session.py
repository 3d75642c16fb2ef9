"""Who is asking: bound by the application, never taken from LLM output."""

from __future__ import annotations

from dataclasses import dataclass

GUEST_USER_ID = 0  # MovieLens user ids start at 1: the guest has no ratings of anyone else


@dataclass
class Session:
    """The user a conversation belongs to. Tools read `user_id` from here only.

    A guest session (`user_id` 0) gets its own fresh user id the first time it stores a
    rating (see `semantic_layer.users.new_user_id`); the application sees it here afterwards.
    """

    user_id: int = GUEST_USER_ID
    display_name: str = ""

    @property
    def is_guest(self) -> bool:
        return self.user_id == GUEST_USER_ID

    def bind(self, user_id: int) -> None:
        """Attach the conversation to a user (done by the application or the Memory tool)."""
        self.user_id = user_id
