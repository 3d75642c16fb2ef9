"""`movieagent eval`: run a question set through the agent (and the baseline), write the report.

The subjects take turns question by question, each with its own LLM client (an in-process model
keeps one KV cache per client, so neither evicts the other's prompt prefix), and with `--out`
every outcome is appended to `outcomes.jsonl` as it comes: a run cut short still compares both
subjects on the same questions. `--spread` orders the questions round-robin by category, so
that any first part of the run covers every category.
"""

from __future__ import annotations

import json
import time
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console

from agent.defaults import DEFAULT_MAX_STEPS
from evaluation.defaults import DEFAULT_SET

if TYPE_CHECKING:  # imported when the command runs: `movieagent --help` stays quick
    from evaluation.outcome import Outcome
    from evaluation.questions import Question
    from evaluation.runner import Subject

err = Console(stderr=True, highlight=False)


def eval_command(
    set_path: Annotated[
        Path,
        typer.Option(
            "--set",
            help="Question set, .yaml or .jsonl.",
            show_default="the shipped set, evaluation/questions.yaml",
        ),
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
    subject: Annotated[
        list[str] | None,
        typer.Option(
            "--subject",
            help="Run only these subjects: agent, baseline (repeatable; default: agent, "
            "plus baseline with --baseline). Runs of one subject each combine with --outcomes.",
        ),
    ] = None,
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
    max_new_tokens: Annotated[
        int | None,
        typer.Option(
            "--max-new-tokens",
            min=16,
            show_default="$MOVIEAGENT_MAX_NEW_TOKENS, else 512",
            help="Tokens per step, for both subjects.",
        ),
    ] = None,
    spread: Annotated[
        bool, typer.Option("--spread", help="Round-robin over categories (for partial runs).")
    ] = False,
    outcomes: Annotated[
        list[Path] | None,
        typer.Option(
            "--outcomes",
            help="Run nothing: report on the outcomes.jsonl of earlier (or cut-short) runs "
            "(repeatable: e.g. one run per subject).",
        ),
    ] = None,
) -> None:
    """Measure tool choice, arguments, facts, parse failures, cost and latency on a question set."""
    from agent.errors import AgentError
    from agent.llm.factory import build_llm
    from agent.settings import LLMSettings
    from evaluation.questions import QuestionSetError, load_questions
    from evaluation.report import build_report, markdown, write_report
    from evaluation.runner import AgentSubject

    if outcomes:
        _report_outcomes(set_path, outcomes, as_json)
        return
    names = _subject_names(subject, baseline)
    try:
        questions = _select(load_questions(set_path).questions, category, limit)
        questions = round_robin(questions) if spread else questions
        settings = LLMSettings.from_env(spec=llm)
        if max_new_tokens is not None:
            settings = replace(settings, max_new_tokens=max_new_tokens)
        model = build_llm(settings)
    except (QuestionSetError, AgentError) as e:
        err.print(f"[red]error:[/red] {e}")
        raise typer.Exit(2) from e
    subjects: list[Subject] = []
    if "agent" in names:
        subjects.append(AgentSubject(model, settings, max_steps=max_steps))
    if "baseline" in names:
        from evaluation.baseline import BaselineSubject

        own = build_llm(settings) if subjects else model  # its own client: its own KV cache
        subjects.append(
            BaselineSubject(own, max_steps=max_steps, max_new_tokens=settings.max_new_tokens)
        )
    started = time.time()
    log_path = out / "outcomes.jsonl" if out is not None else None
    runs = _run_all(subjects, questions, quiet=as_json, log_path=log_path)
    meta = {
        "set": str(set_path),
        "questions": len(questions),
        "llm": model.describe(),
        "max_steps": max_steps,
        "max_new_tokens": settings.max_new_tokens,
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
    subjects: list[Subject], questions: list[Question], quiet: bool, log_path: Path | None = None
) -> dict[str, list[Outcome]]:
    from agent.errors import AgentError
    from evaluation.runner import run_set
    from evaluation.sandbox import scratch_graph
    from semantic_layer.errors import SemanticLayerError
    from semantic_layer.graph import connect
    from semantic_layer.tools import ToolContext, build_tools
    from semantic_layer.user_policy import eval_user_ids

    if log_path is not None:
        log_path.parent.mkdir(parents=True, exist_ok=True)
        log_path.write_text("", encoding="utf-8")

    def progress(question: Question, outcome: Outcome) -> None:
        if log_path is not None:
            with log_path.open("a", encoding="utf-8") as log:
                log.write(outcome.model_dump_json() + "\n")
        if not quiet:
            tools = ",".join(u.tool for u in outcome.tools) or "-"
            err.print(
                f"[dim]{outcome.subject:>8} {question.id}: {tools} {outcome.ending} "
                f"{outcome.ms / 1000:.1f}s[/dim]"
            )

    runs: dict[str, list[Outcome]] = {subject.name: [] for subject in subjects}
    user_ids = eval_user_ids()
    try:
        tools = build_tools()  # once: every question and subject shares them
        with connect() as graph, scratch_graph(graph) as scratch:
            for question in questions:  # subjects take turns: a cut-off run stays comparable
                for subject in subjects:
                    runs[subject.name] += run_set(
                        subject,
                        [question],
                        tools,
                        lambda session: ToolContext(scratch, session),
                        first_user_id=next(user_ids),
                        progress=progress,
                    )
    except (AgentError, SemanticLayerError) as e:
        err.print(f"[red]error:[/red] {e}")
        raise typer.Exit(1) from e
    return runs


SUBJECTS = ("agent", "baseline")


def _subject_names(chosen: list[str] | None, baseline: bool) -> list[str]:
    """The subjects to run: `--subject` values when given, else the agent (and the baseline)."""
    if not chosen:
        return ["agent", "baseline"] if baseline else ["agent"]
    unknown = sorted(set(chosen) - set(SUBJECTS))
    if unknown:
        err.print(f"[red]error:[/red] unknown subject {', '.join(unknown)}: use agent or baseline")
        raise typer.Exit(2)
    return [name for name in SUBJECTS if name in chosen]


def _report_outcomes(set_path: Path, paths: list[Path], as_json: bool) -> None:
    """The report for the questions that every subject in `paths` finished."""
    from evaluation.outcome import Outcome
    from evaluation.questions import QuestionSetError, load_questions
    from evaluation.report import build_report, markdown

    try:
        questions = load_questions(set_path).questions
        lines = [line for path in paths for line in path.read_text(encoding="utf-8").splitlines()]
        runs = finished_by_all([Outcome.model_validate_json(line) for line in lines if line])
    except (QuestionSetError, OSError, ValueError) as e:
        err.print(f"[red]error:[/red] {e}")
        raise typer.Exit(2) from e
    done = {o.id for o in next(iter(runs.values()), [])}
    chosen = [q for q in questions if q.id in done]
    meta = {"set": str(set_path), "questions": len(chosen), "outcomes": [str(p) for p in paths]}
    report = build_report(chosen, {n: _ordered(o, chosen) for n, o in runs.items()}, meta)
    typer.echo(json.dumps(report, indent=2, default=str) if as_json else markdown(report))


def finished_by_all(outcomes: list[Outcome]) -> dict[str, list[Outcome]]:
    """Outcomes per subject, kept only for the questions that every subject finished."""
    runs: dict[str, dict[str, Outcome]] = {}
    for outcome in outcomes:
        runs.setdefault(outcome.subject, {})[outcome.id] = outcome
    common = set.intersection(*(set(r) for r in runs.values())) if runs else set()
    return {name: [o for i, o in r.items() if i in common] for name, r in runs.items()}


def _ordered(outcomes: list[Outcome], questions: list[Question]) -> list[Outcome]:
    by_id = {o.id: o for o in outcomes}
    return [by_id[q.id] for q in questions]


def round_robin(questions: list[Question]) -> list[Question]:
    """One question of each category in turn, each category in its own order."""
    by_category: dict[str, list[Question]] = {}
    for question in questions:
        by_category.setdefault(question.category, []).append(question)
    queues = list(by_category.values())
    ordered: list[Question] = []
    while any(queues):
        for queue in queues:
            if queue:
                ordered.append(queue.pop(0))
    return ordered


def _select(
    questions: list[Question], categories: list[str] | None, limit: int | None
) -> list[Question]:
    if categories:
        questions = [q for q in questions if q.category in categories]
    return questions[:limit] if limit else questions


def register(app: typer.Typer) -> None:
    app.command("eval")(eval_command)
