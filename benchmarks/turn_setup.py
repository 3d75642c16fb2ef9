"""Per-turn set-up cost: tools, prompt and grammar, built once per process and reused.

    python -m benchmarks.turn_setup [--turns 200]

Each turn is a new user (a new session) asking one question of an instant scripted model that
calls smalltalk once (no graph query), as the UI, `movieagent chat`/`eval` and MCP do it: the
tools (`build_tools`, which parses every `.cypher` header), the agent (prompt and grammars) are
built once, and a turn makes only its `ToolContext`. Printed: the one-off build time, the
median set-up time per turn (before the model is asked), the median whole turn, and counts per
turn of `.cypher` headers parsed, step grammars built and prompts rendered (counts are the
figures to compare on a busy machine). Before this design (main at 113526f) every turn rebuilt
all of it: 3 headers parsed, 3 grammars and 1 prompt per turn, 8 to 30 ms set-up per turn on
2 shared cores (the same harness on main's API; the figure depends on the load).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable, Iterator
from typing import Any

from agent.llm.base import LLM, LLMChunk, LLMRequest, TokenUsage
from movieagent.stop_signals import stop_like_ctrl_c


def _counting(counts: dict[str, int]) -> None:
    """Count `.cypher` header parses, step grammars and prompts from here on."""
    import agent.loop as loop
    import semantic_layer.tools.declared as declared

    def counted(name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            counts[name] += 1
            return fn(*args, **kwargs)

        return wrapper

    declared.parse_tool_file = counted("cypher_headers_parsed", declared.parse_tool_file)  # type: ignore[assignment]
    loop.step_schema = counted("step_schemas_built", loop.step_schema)  # type: ignore[assignment]
    loop.ReactPrompt = counted("prompts_rendered", loop.ReactPrompt)  # type: ignore[assignment,misc]


class _Hello(LLM):
    """An instant model: each question calls smalltalk, then answers "Hello!"."""

    CALL = json.dumps({"action": "smalltalk", "action_input": {"query": "hi"}})
    ANSWER = json.dumps({"action": "Final Answer", "action_input": "Hello!"})

    def describe(self) -> str:
        return "instant scripted model"

    def stream(self, request: LLMRequest) -> Iterator[LLMChunk]:
        asked = any('"smalltalk"' in m.content for m in request.messages if m.role == "assistant")
        yield LLMChunk(text=self.ANSWER if asked else self.CALL)
        yield LLMChunk(finish_reason="eos_token", usage=TokenUsage(prompt_tokens=1))


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--turns", type=int, default=200)
    turns = parser.parse_args(argv).turns

    from agent.build import build_agent
    from semantic_layer.session import Session
    from semantic_layer.tools import ToolContext, build_tools

    counts = {"cypher_headers_parsed": 0, "step_schemas_built": 0, "prompts_rendered": 0}
    _counting(counts)
    llm = _Hello()
    started = time.perf_counter()
    agent = build_agent(llm, build_tools())  # once per process
    once_ms = (time.perf_counter() - started) * 1000
    once = dict(counts)
    setup_ms: list[float] = []
    turn_ms: list[float] = []
    for n in range(turns):
        started = time.perf_counter()
        context = ToolContext(None, Session(user_id=1000 + n))  # smalltalk needs no graph
        ready = time.perf_counter()
        result = agent.ask("hi", context=context)
        setup_ms.append((ready - started) * 1000)
        turn_ms.append((time.perf_counter() - started) * 1000)
        assert result.answer == "Hello!", result.answer
    figures = {
        "turns": turns,
        "build_once_ms": round(once_ms, 3),
        "setup_ms_per_turn": round(statistics.median(setup_ms), 3),
        "turn_ms_p50": round(statistics.median(turn_ms), 3),
        **{f"{k}_per_turn": round((v - once[k]) / turns, 2) for k, v in counts.items()},
    }
    print(json.dumps(figures, indent=2))
    return figures


if __name__ == "__main__":
    stop_like_ctrl_c()  # SIGTERM unwinds as Ctrl-C: the graph server it started stops
    main()
