"""Who is asking: bound by the application, never taken from LLM output."""

from __future__ import annotations

from dataclasses import dataclass

from semantic_layer.errors import ReadOnlySessionError

GUEST_USER_ID = 0  # MovieLens user ids start at 1: the guest has no ratings of anyone else


@dataclass
class Session:
    """The user a conversation belongs to. Tools read `user_id` from here only.

    A guest session (`user_id` 0) gets its own fresh user id the first time it stores a
    rating (see `semantic_layer.users.new_user_id`): the tool reports it in
    `ToolResult.new_user_id` and the front end switches to a session for that user. Tools
    never change a session.
    A `read_only` session (a MovieLens user shown as a demo) reads like any other, and every
    write through it is refused with a sentence (`require_writable`).
    """

    user_id: int = GUEST_USER_ID
    display_name: str = ""
    read_only: bool = False

    @property
    def is_guest(self) -> bool:
        return self.user_id == GUEST_USER_ID

    def require_writable(self) -> None:
        """Raise `ReadOnlySessionError` unless ratings may be stored or removed for this user."""
        if self.read_only:
            raise ReadOnlySessionError(
                f"MovieLens user {self.user_id} is a read-only demo: nothing can be stored or "
                "removed under their name. Switch to your own user to rate movies."
            )

    def bind(self, user_id: int) -> None:
        """Attach the conversation to a user (done by the application, never by a tool)."""
        self.require_writable()
        self.user_id = user_id
