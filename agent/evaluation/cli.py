"""`movieagent eval`: run a question set through the agent (and the baseline), write the report."""

from __future__ import annotations

import json
import time
from dataclasses import replace
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from agent.build import DEFAULT_MAX_STEPS, session_tools
from agent.errors import AgentError
from agent.evaluation.outcome import Outcome
from agent.evaluation.questions import Question, QuestionSetError, load_questions
from agent.evaluation.report import build_report, markdown, write_report
from agent.evaluation.runner import AgentSubject, Subject, run_set
from agent.llm.factory import build_llm
from agent.settings import LLMSettings

DEFAULT_SET = Path("tests/eval/questions.yaml")
err = Console(stderr=True, highlight=False)


def eval_command(
    set_path: Annotated[
        Path, typer.Option("--set", help="Question set, .yaml or .jsonl.")
    ] = DEFAULT_SET,
    llm: Annotated[
        str | None,
        typer.Option(
            "--llm", help="tgi+http://HOST:PORT, openai+http://HOST:PORT/v1, llamacpp[:PATH]."
        ),
    ] = None,
    baseline: Annotated[
        bool, typer.Option("--baseline", help="Also run the plain LangChain JSON chat agent.")
    ] = False,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the whole report as JSON.")
    ] = False,
    out: Annotated[
        Path | None, typer.Option("--out", help="Write report.json, report.md and a plot here.")
    ] = None,
    limit: Annotated[
        int | None, typer.Option("--limit", min=1, help="Only the first N questions.")
    ] = None,
    category: Annotated[
        list[str] | None, typer.Option("--category", help="Only these categories (repeatable).")
    ] = None,
    max_steps: Annotated[int, typer.Option("--max-steps", min=1)] = DEFAULT_MAX_STEPS,
    max_new_tokens: Annotated[int, typer.Option("--max-new-tokens", min=16)] = 400,
) -> None:
    """Measure tool choice, arguments, facts, parse failures, cost and latency on a question set."""
    try:
        questions = _select(load_questions(set_path).questions, category, limit)
        settings = replace(LLMSettings.from_env(spec=llm), max_new_tokens=max_new_tokens)
        model = build_llm(settings)
    except (QuestionSetError, AgentError) as e:
        err.print(f"[red]error:[/red] {e}")
        raise typer.Exit(2) from e
    subjects: list[Subject] = [AgentSubject(model, settings, max_steps=max_steps)]
    if baseline:
        from agent.evaluation.baseline import BaselineSubject

        subjects.append(BaselineSubject(model, max_steps=max_steps, max_new_tokens=max_new_tokens))
    started = time.time()
    runs = _run_all(subjects, questions, quiet=as_json)
    meta = {
        "set": str(set_path),
        "questions": len(questions),
        "llm": model.describe(),
        "max_steps": max_steps,
        "max_new_tokens": max_new_tokens,
        "started": time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime(started)),
        "wall_s": round(time.time() - started, 1),
    }
    report = build_report(questions, runs, meta)
    if out is not None:
        for path in write_report(report, out):
            err.print(f"[dim]wrote {path}[/dim]")
    if as_json:
        typer.echo(json.dumps(report, indent=2, ensure_ascii=False, default=str))
    else:
        typer.echo(markdown(report))


def _run_all(
    subjects: list[Subject], questions: list[Question], quiet: bool
) -> dict[str, list[Outcome]]:
    from agent.evaluation.sandbox import scratch_graph
    from semantic_layer.errors import SemanticLayerError
    from semantic_layer.graph import connect

    def progress(question: Question, outcome: Outcome) -> None:
        if not quiet:
            tools = ",".join(u.tool for u in outcome.tools) or "-"
            err.print(
                f"[dim]{outcome.subject:>8} {question.id}: {tools} {outcome.ending} "
                f"{outcome.ms / 1000:.1f}s[/dim]"
            )

    runs: dict[str, list[Outcome]] = {}
    try:
        with connect() as graph, scratch_graph(graph) as scratch:
            for subject in subjects:
                runs[subject.name] = run_set(
                    subject,
                    questions,
                    lambda session: session_tools(scratch, session),
                    progress=progress,
                )
    except (AgentError, SemanticLayerError) as e:
        err.print(f"[red]error:[/red] {e}")
        raise typer.Exit(1) from e
    return runs


def _select(
    questions: list[Question], categories: list[str] | None, limit: int | None
) -> list[Question]:
    if categories:
        questions = [q for q in questions if q.category in categories]
    return questions[:limit] if limit else questions


def register(app: typer.Typer) -> None:
    app.command("eval")(eval_command)
