"""What the page remembers between reruns, all in `st.session_state`: turns, user, pending input."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import streamlit as st

from agent.llm.base import ChatMessage
from agent.result import AgentResult, LLMCall, ToolStep

TURNS = "turns"
PENDING = "pending_question"
USER_ID = "user_id"


@dataclass
class StepView:
    """One model call as the page shows it: the call, the tool it ran, notes (corrections)."""

    step: int
    label: str = ""
    state: str = "running"  # running | complete | error
    call: LLMCall | None = None
    tool: ToolStep | None = None
    notes: list[str] = field(default_factory=list)


@dataclass
class Turn:
    question: str
    answer: str = ""
    result: AgentResult | None = None
    steps: list[StepView] = field(default_factory=list)
    error: str | None = None


def turns() -> list[Turn]:
    return st.session_state.setdefault(TURNS, [])


def history() -> list[ChatMessage]:
    """The conversation so far, for follow-up questions (failed turns left out); the agent
    links its last turns to the graph, so "who directed it?" finds the movie."""
    messages: list[ChatMessage] = []
    for turn in turns():
        if turn.error is None and turn.answer:
            messages.append(ChatMessage(role="user", content=turn.question))
            messages.append(ChatMessage(role="assistant", content=turn.answer))
    return messages


def ask(question: str) -> None:
    """Queue a question (example and candidate buttons); the next run sends it."""
    st.session_state[PENDING] = question


def take_pending() -> str | None:
    return st.session_state.pop(PENDING, None)


def reset_chat() -> None:
    st.session_state[TURNS] = []
    st.session_state.pop(PENDING, None)


def get(key: str, default: Any = None) -> Any:
    return st.session_state.get(key, default)
