"""Agent commands: `movieagent ask "QUESTION"` and `movieagent chat`."""

from __future__ import annotations

import importlib
import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Annotated, Any

import typer
from rich.console import Console

from agent.errors import AgentError
from agent.events import AnswerToken, Correction, ErrorEvent, FinalAnswer, LLMRetry, ToolCallEvent
from agent.llm.base import ChatMessage
from agent.llm.factory import build_llm
from agent.loop import Agent
from agent.result import AgentResult
from agent.settings import LLMSettings

GUEST_USER_ID = 0  # MovieLens user ids start at 1, so the guest never reads someone's ratings

UserOption = Annotated[
    int | None, typer.Option("--user-id", help="Whose ratings to use and store (default: a guest).")
]
LLMOption = Annotated[
    str | None,
    typer.Option(
        "--llm", help="tgi+http://HOST:PORT, openai+http://HOST:PORT/v1, llamacpp[:PATH]."
    ),
]
StepsOption = Annotated[int, typer.Option("--max-steps", min=1, help="Model calls per question.")]

err = Console(stderr=True, highlight=False, soft_wrap=True)


def ask_command(
    question: Annotated[str, typer.Argument(help="A movie question in plain language.")],
    user_id: UserOption = None,
    llm: LLMOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print answer, steps and costs.")] = False,
    max_steps: StepsOption = 5,
) -> None:
    """Answer one question with the agent."""
    with _agent(llm, user_id, max_steps) as agent:
        result = _run(agent, question, [], stream_answer=not as_json)
    if as_json:
        typer.echo(json.dumps(report(result), indent=2, ensure_ascii=False, default=str))
    if result.stop_reason == "error":
        raise typer.Exit(1)


def chat_command(
    user_id: UserOption = None, llm: LLMOption = None, max_steps: StepsOption = 5
) -> None:
    """Talk with the agent; follow-up questions see the conversation so far. Ctrl-D ends it."""
    history: list[ChatMessage] = []
    with _agent(llm, user_id, max_steps) as agent:
        err.print(f"[dim]{agent.llm.describe()}; {len(agent.tools)} tools. Ctrl-D to leave.[/dim]")
        while True:
            try:
                question = input("you> ").strip()
            except (EOFError, KeyboardInterrupt):
                typer.echo()
                return
            if question.lower() in {"exit", "quit", ":q"}:
                return
            if not question:
                continue
            typer.echo("agent> ", nl=False)
            result = _run(agent, question, history, stream_answer=True)
            history += [
                ChatMessage(role="user", content=question),
                ChatMessage(role="assistant", content=result.answer),
            ]


def report(result: AgentResult) -> dict[str, Any]:
    """What `ask --json` prints."""
    return {
        "question": result.question,
        "answer": result.answer,
        "stop_reason": result.stop_reason,
        "error": result.error,
        "candidates": [c.model_dump(exclude_none=True) for c in result.candidates],
        "steps": [
            {
                "tool": s.tool,
                "input": s.input,
                "output": s.output,
                "queries": [q.model_dump() for q in s.result.queries] if s.result else [],
                "ms": round(s.ms, 2),
            }
            for s in result.steps
        ],
        "llm_calls": len(result.llm_calls),
        "llm_call_details": [
            c.model_dump(
                include={"step", "prompt_tokens", "completion_tokens", "ms", "finish_reason"}
            )
            for c in result.llm_calls
        ],
        "tokens": {"prompt": result.prompt_tokens, "completion": result.completion_tokens},
        "timings": {k: round(v, 2) for k, v in result.timings.model_dump().items()},
    }


def _run(
    agent: Agent, question: str, history: list[ChatMessage], stream_answer: bool
) -> AgentResult:
    for event in agent.stream(question, history):
        if isinstance(event, AnswerToken) and stream_answer:
            typer.echo(event.text, nl=False)
        elif isinstance(event, ToolCallEvent):
            rows = sum(q.rows for q in event.result.queries) if event.result else 0
            args = json.dumps(event.input, ensure_ascii=False)
            err.print(f"[dim]  ↳ {event.tool} {args}: {rows} rows, {event.ms:.0f} ms[/dim]")
        elif isinstance(event, (Correction, LLMRetry)):
            err.print(f"[dim]  ↳ {event.type}: {getattr(event, 'reason', '')}[/dim]")
        elif isinstance(event, ErrorEvent):
            err.print(f"[red]error:[/red] {event.message}")
        elif isinstance(event, FinalAnswer):
            if stream_answer and event.stop_reason != "error":
                typer.echo()
            return event.result
    raise AssertionError("the agent ended without a final answer")  # pragma: no cover


@contextmanager
def _agent(spec: str | None, user_id: int | None, max_steps: int) -> Iterator[Agent]:
    """The configured LLM and the real tools over the configured graph."""
    from semantic_layer.errors import SemanticLayerError
    from semantic_layer.graph import connect
    from semantic_layer.session import Session

    try:
        settings = LLMSettings.from_env(spec=spec)
        llm = build_llm(settings)
        try:  # looked up at run time: the tools arrive with the semantic layer
            build_tools = importlib.import_module("semantic_layer.tools").build_tools
        except (ImportError, AttributeError) as e:
            err.print(f"[red]error:[/red] the semantic-layer tools are not available ({e}).")
            raise typer.Exit(1) from e
        with connect() as graph:
            session = Session(user_id=GUEST_USER_ID if user_id is None else user_id)
            yield Agent(
                llm,
                build_tools(graph, session),
                max_steps=max_steps,
                call_timeout_s=settings.timeout_s,
                max_new_tokens=settings.max_new_tokens,
            )
    except (AgentError, SemanticLayerError) as e:
        err.print(f"[red]error:[/red] {e}")
        raise typer.Exit(1) from e


def register(app: typer.Typer) -> None:
    app.command("ask")(ask_command)
    app.command("chat")(chat_command)
