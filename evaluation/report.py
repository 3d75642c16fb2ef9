"""The report: one JSON document, a short Markdown table, and a latency-per-tool PNG.

The JSON holds, per subject (our agent, the baseline), the summary overall and per category,
each question's score, and each question's outcome (answer, tool calls, cost), so any figure can
be recounted from it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from evaluation.metrics import Summary, evaluate, percentile, tool_latencies
from evaluation.outcome import Outcome
from evaluation.questions import Question

ROWS: list[tuple[str, str, str]] = [  # (label, summary field, format)
    ("tool-choice accuracy", "tool_accuracy", "pct"),
    ("argument accuracy", "argument_accuracy", "pct"),
    ("answer contains facts", "facts_rate", "pct"),
    ("parse failures (replies)", "parse_failures", "int"),
    ("questions with a parse failure", "questions_with_parse_failure", "int"),
    ("runs ending in an error", "errors", "int"),
    ("LLM calls / question", "llm_calls_per_question", "num"),
    ("prompt tokens / question", "prompt_tokens_per_question", "int"),
    ("completion tokens / question", "completion_tokens_per_question", "int"),
    ("latency p50 (ms)", "latency_p50_ms", "int"),
    ("latency p95 (ms)", "latency_p95_ms", "int"),
    ("invented names or relations", "invented", "int"),
    ("questions with an invented name", "questions_with_invented", "int"),
    ("unrequested writes", "unrequested_writes", "int"),
    ("answers cut mid-sentence", "cut_answers", "int"),
    ("answers in another language than the question", "other_language_answers", "int"),
]


def build_report(
    questions: Sequence[Question],
    runs: Mapping[str, Sequence[Outcome]],
    meta: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    subjects: dict[str, Any] = {}
    for name, outcomes in runs.items():
        result = evaluate(questions, outcomes)
        subjects[name] = {
            "overall": result["overall"].model_dump(),
            "categories": {c: s.model_dump() for c, s in result["categories"].items()},
            "tools": {
                tool: {"calls": len(ms), "p50_ms": percentile(ms, 50), "p95_ms": percentile(ms, 95)}
                for tool, ms in sorted(tool_latencies(outcomes).items())
            },
            "scores": [s.model_dump() for s in result["scores"]],
            "outcomes": [o.model_dump() for o in outcomes],
        }
    return {"meta": dict(meta or {}), "subjects": subjects}


def markdown(report: Mapping[str, Any]) -> str:
    subjects = report["subjects"]
    names = list(subjects)
    lines = [
        "| metric | " + " | ".join(names) + " |",
        "|---|" + "---:|" * len(names),
    ]
    for label, field, kind in ROWS:
        cells = [_cell(subjects[n]["overall"][field], kind) for n in names]
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    lines += [
        "",
        "| category | n | " + " | ".join(f"{n}: tool / args / facts" for n in names) + " |",
    ]
    lines.append("|---|---:|" + "---|" * len(names))
    first = subjects[names[0]]["categories"] if names else {}
    for category, summary in first.items():
        cells = []
        for n in names:
            s = subjects[n]["categories"].get(category)
            cells.append(
                " / ".join(
                    _cell(s[f], "pct") for f in ("tool_accuracy", "argument_accuracy", "facts_rate")
                )
                if s
                else "-"
            )
        lines.append(f"| {category} | {summary['questions']} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def write_report(report: Mapping[str, Any], out_dir: Path) -> list[Path]:
    """report.json, report.md and (with matplotlib installed) latency_per_tool.png."""
    out_dir.mkdir(parents=True, exist_ok=True)
    written = [out_dir / "report.json", out_dir / "report.md"]
    written[0].write_text(
        json.dumps(report, indent=2, ensure_ascii=False, default=str), encoding="utf-8"
    )
    written[1].write_text(markdown(report), encoding="utf-8")
    plot = plot_tool_latency(report, out_dir / "latency_per_tool.png")
    return [*written, plot] if plot else written


def plot_tool_latency(report: Mapping[str, Any], path: Path) -> Path | None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    series: dict[str, dict[str, list[float]]] = {}
    for name, subject in report["subjects"].items():
        outcomes = [Outcome.model_validate(o) for o in subject["outcomes"]]
        series[name] = tool_latencies(outcomes)
    labels = sorted({tool for per_tool in series.values() for tool in per_tool})
    if not labels:
        return None
    fig, ax = plt.subplots(figsize=(max(4, 1.6 * len(labels)), 3.5))
    width = 0.8 / max(1, len(series))
    for i, (name, per_tool) in enumerate(series.items()):
        p50 = [percentile(per_tool.get(t, []), 50) or 0 for t in labels]
        p95 = [percentile(per_tool.get(t, []), 95) or 0 for t in labels]
        xs = [x + i * width for x in range(len(labels))]
        ax.bar(xs, p95, width, alpha=0.35, label=f"{name} p95")
        ax.bar(xs, p50, width, label=f"{name} p50")
    ax.set_xticks([x + width * (len(series) - 1) / 2 for x in range(len(labels))], labels)
    ax.set_ylabel("ms per call")
    ax.set_title("Tool latency")
    ax.legend(fontsize="small")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path


def _cell(value: Any, kind: str) -> str:
    if value is None:
        return "-"
    if kind == "pct":
        return f"{100 * value:.1f}%"
    if kind == "int":
        return f"{value:.0f}"
    return f"{value:.2f}"


__all__ = ["Summary", "build_report", "markdown", "write_report"]
