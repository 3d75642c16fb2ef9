"""Mixtral's chat template, to measure prompts as Mixtral sees them (`benchmarks.agent_loop`).

No backend renders prompts itself any more: TGI's Messages API and OpenAI-compatible servers
apply the served model's own template.

`[INST] user [/INST] assistant</s>[INST] user [/INST]`: no system role, strictly alternating
turns, starting and ending with the user. The leading `<s>` is left out because TGI's
tokenizer adds the BOS token itself.
"""

from __future__ import annotations

from collections.abc import Sequence

from agent.llm.base import ChatMessage


def render_mixtral(messages: Sequence[ChatMessage]) -> str:
    if not messages or messages[0].role != "user" or messages[-1].role != "user":
        raise ValueError("Mixtral prompts start and end with a user turn")
    parts: list[str] = []
    for i, message in enumerate(messages):
        if message.role != ("user" if i % 2 == 0 else "assistant"):
            raise ValueError("Mixtral prompts alternate user and assistant turns")
        if message.role == "user":
            parts.append(f"[INST] {message.content.strip()} [/INST]")
        else:
            parts.append(f" {message.content.strip()}</s>")
    return "".join(parts)
