"""Agent commands: `movieagent ask "QUESTION"` and `movieagent chat`.

Who is asking. Without `--user-id` the conversation is a guest's; the first rating the Memory
tool stores gives the guest a fresh user id (10,000,000 and up, never a MovieLens id). The
command then prints that id on stderr, and the rest of the conversation uses it. `--user-id N`
goes through `semantic_layer.user_policy`: an app id handed out earlier (not one of a person who
signs in to the web app), or a MovieLens user with ratings as a read-only demo (`--as-admin`
lets it write); negative, too large or never handed out ids are refused with a sentence. The
model never chooses the user: no tool takes one.

Before the first question the graph must hold movies and the model must answer; each missing
piece is one sentence on stderr (what to run or start), and the command exits with 1.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer
from rich.console import Console
from rich.markup import escape

from agent.defaults import DEFAULT_MAX_STEPS

if TYPE_CHECKING:  # the rest is imported when a command runs: `movieagent --help` stays quick
    from agent.llm.base import LLM, ChatMessage
    from agent.loop import Agent
    from agent.result import AgentResult
    from agent.settings import LLMSettings
    from semantic_layer.graph import Graph
    from semantic_layer.session import Session
    from semantic_layer.tools import ToolContext

UserOption = Annotated[
    int | None,
    typer.Option(
        "--user-id",
        help="Whose ratings to use and store: an id an earlier conversation gave you, or a "
        "MovieLens user as a read-only demo (default: a guest, who gets a fresh id with the "
        "first rating).",
    ),
]
AdminOption = Annotated[
    bool,
    typer.Option(
        "--as-admin", help="Allow writing as a MovieLens user or as another person's app user."
    ),
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
    max_steps: StepsOption = DEFAULT_MAX_STEPS,
    as_admin: AdminOption = False,
) -> None:
    """Answer one question with the agent."""
    from semantic_layer.text_safety import clean_text

    with _conversation(llm, user_id, max_steps, as_admin) as conversation:
        result = conversation.ask(clean_text(question), stream_answer=not as_json)
    if as_json:
        data = {**report(result), "user_id": conversation.session.user_id or None}
        typer.echo(json.dumps(data, indent=2, ensure_ascii=False, default=str))
    if result.stop_reason == "error":
        raise typer.Exit(1)


def chat_command(
    user_id: UserOption = None,
    llm: LLMOption = None,
    max_steps: StepsOption = DEFAULT_MAX_STEPS,
    as_admin: AdminOption = False,
) -> None:
    """Talk with the agent; follow-up questions see the conversation so far. Ctrl-D ends it."""
    from semantic_layer.text_safety import clean_text

    with _conversation(llm, user_id, max_steps, as_admin) as conversation:
        agent, session = conversation.agent, conversation.session
        who = "a guest" if session.is_guest else f"user {session.user_id}"
        err.print(
            f"[dim]{escape(agent.llm.describe())}; {len(agent.tools)} tools; you are {who}. "
            "Ctrl-D to leave.[/dim]"
        )
        agent.warm_up_in_background()  # the static prompt head is cached while the user types
        while True:
            try:
                question = clean_text(input("you> ").strip())
            except (EOFError, KeyboardInterrupt):
                typer.echo()
                return
            if question.lower() in {"exit", "quit", ":q"}:
                return
            if not question:
                continue
            typer.echo("agent> ", nl=False)
            conversation.ask(question, stream_answer=True)


@dataclass
class Conversation:
    """The agent, the graph, who is asking, and the questions and answers so far."""

    agent: Agent
    session: Session
    graph: Graph | None = None
    history: list[ChatMessage] = field(default_factory=list)

    def ask(self, question: str, *, stream_answer: bool) -> AgentResult:
        from agent.llm.base import ChatMessage
        from semantic_layer.tools import ToolContext

        context = ToolContext(self.graph, self.session)
        result = _run(self.agent, question, self.history, context, stream_answer)
        self.history += [
            ChatMessage(role="user", content=question),
            ChatMessage(role="assistant", content=result.answer),
        ]
        if result.new_user_id is not None:  # a rating gave the guest a user of their own
            user = result.new_user_id
            self.session = replace(self.session, user_id=user)
            err.print(f"You are now user {user}; pass --user-id {user} to keep your ratings.")
        return result


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
    agent: Agent,
    question: str,
    history: list[ChatMessage],
    context: ToolContext,
    stream_answer: bool,
) -> AgentResult:
    from agent.events import (
        AnswerToken,
        Correction,
        ErrorEvent,
        FinalAnswer,
        LLMRetry,
        Referred,
        ToolCallEvent,
    )

    shown = ""
    for event in agent.stream(question, history, context):
        if isinstance(event, AnswerToken) and stream_answer:
            typer.echo(event.text, nl=False)
            shown += event.text
        elif isinstance(event, ToolCallEvent):
            rows = sum(q.rows for q in event.result.queries) if event.result else 0
            args = json.dumps(event.input, ensure_ascii=False)
            err.print(f"[dim]  ↳ {event.tool} {escape(args)}: {rows} rows, {event.ms:.0f} ms[/dim]")
        elif isinstance(event, Referred) and event.points_at is not None:
            err.print(f"[dim]  ↳ about {escape(event.points_at)}[/dim]")
        elif isinstance(event, LLMRetry):
            note = f"the model failed ({event.error}); trying again in {event.wait_s:g} s"
            err.print(f"[dim]  ↳ {escape(note)}[/dim]")
        elif isinstance(event, Correction):
            err.print(f"[dim]  ↳ reply not usable: {escape(event.reason)}[/dim]")
        elif isinstance(event, ErrorEvent):
            err.print(f"[red]error:[/red] {escape(event.message)}")
        elif isinstance(event, FinalAnswer):
            if stream_answer and event.stop_reason != "error":
                typer.echo()
                if len(event.answer.strip()) < len(
                    shown.strip()
                ):  # cut before a movie no tool returned
                    err.print("[dim]  ↳ cut to what the tools returned:[/dim]")
                    typer.echo(event.answer)
            return event.result
    raise AssertionError("the agent ended without a final answer")  # pragma: no cover


@contextmanager
def _conversation(
    spec: str | None, user_id: int | None, max_steps: int, admin: bool = False
) -> Iterator[Conversation]:
    """The agent for one command, once the graph and the model are known to be usable."""
    from agent.build import build_agent
    from agent.errors import AgentError
    from semantic_layer.errors import SemanticLayerError, UserIdError
    from semantic_layer.tools import build_tools
    from semantic_layer.user_policy import check_range

    try:
        if user_id is not None:
            check_range(user_id)  # before anything starts
    except UserIdError as e:
        _fail(str(e), code=2)
    try:
        with _services(spec) as (settings, llm, graph):
            _check_ready(graph, llm, settings)
            session = _session(graph, user_id, admin)
            agent = build_agent(llm, build_tools(), settings, max_steps=max_steps)
            yield Conversation(agent, session, graph)
    except (AgentError, SemanticLayerError) as e:
        _fail(str(e))


@contextmanager
def _services(spec: str | None) -> Iterator[tuple[LLMSettings, LLM, Graph]]:
    """The LLM named by `--llm` or the environment, and the configured graph."""
    from agent.llm.factory import build_llm
    from agent.settings import LLMSettings
    from semantic_layer.graph import connect

    settings = LLMSettings.from_env(spec=spec)
    llm = build_llm(settings)
    with connect() as graph:
        yield settings, llm, graph


def _check_ready(graph: Graph, llm: LLM, settings: LLMSettings) -> None:
    from agent.readiness import graph_problem, llm_problem

    problems = [graph_problem(graph)]
    if problems[0] is None or settings.kind != "llamacpp":  # no loading a local model for nothing
        problems.append(llm_problem(llm))
    sentences = [p for p in problems if p]
    for sentence in sentences[:-1]:
        err.print(f"[red]error:[/red] {escape(sentence)}")
    if sentences:
        _fail(sentences[-1])
    if llm.unconstrained:  # known once the backend has met its server (`llm_problem`)
        err.print(f"[yellow]note:[/yellow] {escape(llm.unconstrained)}")


def _session(graph: Graph, user_id: int | None, admin: bool) -> Session:
    """The guest, or `user_id` as `semantic_layer.user_policy` allows it."""
    from semantic_layer.errors import UserIdError
    from semantic_layer.user_policy import session_for
    from semantic_layer.user_ratings import count_ratings

    try:
        session = session_for(graph, user_id, admin=admin)
    except UserIdError as e:
        _fail(str(e), code=2)
    if session.read_only:
        err.print(
            f"MovieLens user {session.user_id} is a read-only demo: their ratings are used, "
            "nothing is stored under their name (--as-admin allows it)."
        )
    elif not session.is_guest and count_ratings(graph, session.user_id) == 0:
        err.print(
            f"User {session.user_id} has no ratings yet: recommendations start from scratch, "
            "and the ratings you give are stored under this id."
        )
    return session


def _fail(sentence: str, code: int = 1) -> NoReturn:
    err.print(f"[red]error:[/red] {escape(sentence)}")
    raise typer.Exit(code)


def register(app: typer.Typer) -> None:
    app.command("ask")(ask_command)
    app.command("chat")(chat_command)
