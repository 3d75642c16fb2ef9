"""The JSON-based ReAct agent: prompt, parsing, constrained decoding, the loop, LLM backends.

Public API (used by the UI, the command line and the evaluation harness)::

    from agent import Agent, build_llm
    from agent.settings import LLMSettings

    llm = build_llm(LLMSettings.from_env())          # tgi / openai / llamacpp, from MOVIEAGENT_LLM
    agent = Agent(llm, build_tools(), max_steps=5)  # once per process; tools: semantic_layer.tools
    context = ToolContext(graph, session)            # per turn: the graph and who is asking
    for event in agent.stream(question, history, context):  # history: ChatMessages or dicts
        ...                                         # typed events, see agent.events
    result = agent.ask(question, history, context)  # AgentResult: answer, steps, new_user_id, ...

`Agent.stream` yields `StepStarted`, `LLMRetry`, `LLMCallEvent`, `Referred`, `Correction`,
`ToolStarted`, `ToolCallEvent`, `AnswerToken` and `ErrorEvent` (all in `agent.events`), and always ends with one `FinalAnswer` (its
`result` is the `AgentResult`; its `candidates`, when set, are the titles to offer as choices).
Model misbehaviour never raises; an unreachable model ends the run with an `ErrorEvent` whose
message says what to start. A new backend implements `agent.llm.base.LLM.stream`.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from agent.events import (
        AgentEvent,
        AnswerToken,
        Correction,
        ErrorEvent,
        FinalAnswer,
        LLMCallEvent,
        LLMRetry,
        StepStarted,
        ToolCallEvent,
        ToolStarted,
    )
    from agent.llm.base import LLM, ChatMessage, LLMChunk, LLMRequest
    from agent.llm.factory import build_llm
    from agent.loop import Agent
    from agent.result import AgentResult, LLMCall, Timings, ToolStep

# Imported on first use, so that `import agent.cli` (for `movieagent --help`) stays light.
_HOMES = {
    **dict.fromkeys(
        [
            "AgentEvent",
            "AnswerToken",
            "Correction",
            "ErrorEvent",
            "FinalAnswer",
            "LLMCallEvent",
            "LLMRetry",
            "StepStarted",
            "ToolCallEvent",
            "ToolStarted",
        ],
        "agent.events",
    ),
    **dict.fromkeys(["LLM", "ChatMessage", "LLMChunk", "LLMRequest"], "agent.llm.base"),
    "build_llm": "agent.llm.factory",
    "Agent": "agent.loop",
    **dict.fromkeys(["AgentResult", "LLMCall", "Timings", "ToolStep"], "agent.result"),
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'agent' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value


__all__ = [
    "LLM",
    "Agent",
    "AgentEvent",
    "AgentResult",
    "AnswerToken",
    "ChatMessage",
    "Correction",
    "ErrorEvent",
    "FinalAnswer",
    "LLMCall",
    "LLMCallEvent",
    "LLMChunk",
    "LLMRequest",
    "LLMRetry",
    "StepStarted",
    "Timings",
    "ToolCallEvent",
    "ToolStarted",
    "ToolStep",
    "build_llm",
]
