"""Each agent step in an expandable `st.status` block: the model call, the tool, its arguments,
the Cypher that ran, the rows it returned and the timings. Live while the agent works, and
replayed from `StepView`s when the history is drawn again.
"""

from __future__ import annotations

import json
from typing import Any

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from agent.events import (
    AgentEvent,
    AnswerToken,
    Correction,
    ErrorEvent,
    FinalAnswer,
    LLMCallEvent,
    LLMRetry,
    Referred,
    StepStarted,
    ToolCallEvent,
    ToolStarted,
)
from agent.result import LLMCall, ToolStep
from ui.escape import md, md_block
from ui.rows import table_rows
from ui.state import StepView

MAX_TABLE_ROWS = 50


def render_steps(steps: list[StepView]) -> None:
    """Draw finished steps again (the chat history)."""
    for view in steps:
        box = st.status(view.label, state=view.state, expanded=False)  # type: ignore[arg-type]
        _write_step(box, view)


class LiveSteps:
    """Turns agent events into status blocks as they arrive; keeps the `StepView`s."""

    def __init__(self, area: DeltaGenerator) -> None:
        self.area = area
        self.views: list[StepView] = []
        self._boxes: list[Any] = []

    def handle(self, event: AgentEvent) -> None:
        if isinstance(event, StepStarted):
            label = f"Step {event.step}: asking the model…"
            self.views.append(StepView(step=event.step, label=label))
            self._boxes.append(self.area.status(label, state="running", expanded=False))
        elif not self.views:
            return
        elif isinstance(event, LLMCallEvent):
            self.views[-1].call = LLMCall(**event.model_dump(exclude={"type"}))
            _write_call(self._boxes[-1], self.views[-1].call)
        elif isinstance(event, LLMRetry):
            self._note(f"The model failed ({md(event.error)}); trying again in {event.wait_s:g} s.")
        elif isinstance(event, Referred) and event.points_at is not None:
            self._note(f"The question is about {md(event.points_at)}.")
        elif isinstance(event, Correction):
            self._note(f"The reply was not usable ({md(event.reason)}); the model was told so.")
            self._label(f"Step {event.step}: reply corrected", "complete")
        elif isinstance(event, ToolStarted):
            self._label(f"Step {event.step}: running `{event.tool}`…", "running")
        elif isinstance(event, ToolCallEvent):
            step = ToolStep(**event.model_dump(exclude={"type"}))
            self.views[-1].tool = step
            _write_tool(self._boxes[-1], step)
            ok = step.result is None or step.result.ok
            self._label(tool_label(step), "complete" if ok else "error")
        elif isinstance(event, AnswerToken) and self.views[-1].state == "running":
            if self.views[-1].tool is None:
                self._label(f"Step {self.views[-1].step}: writing the answer", "running")
        elif isinstance(event, ErrorEvent):
            self._note(md_block(event.message))
            self._label(f"Step {self.views[-1].step}: the model could not be reached", "error")
        elif isinstance(event, FinalAnswer):
            self._finish()

    def _note(self, text: str) -> None:
        self.views[-1].notes.append(text)
        self._boxes[-1].caption(text)

    def _label(self, label: str, state: str) -> None:
        self.views[-1].label, self.views[-1].state = label, state
        self._boxes[-1].update(label=label, state=state)

    def _finish(self) -> None:
        for view, box in zip(self.views, self._boxes, strict=True):
            if view.state == "running":
                view.state = "complete"
                if view.tool is None and not view.notes:
                    view.label = f"Step {view.step}: answer"
                box.update(label=view.label, state="complete")


def tool_label(step: ToolStep) -> str:
    rows = sum(q.rows for q in step.result.queries) if step.result else 0
    return f"Step {step.step}: `{step.tool}` · {rows} rows · {step.ms:.0f} ms"


def _write_step(box: Any, view: StepView) -> None:
    if view.call is not None:
        _write_call(box, view.call)
    for note in view.notes:
        box.caption(note)
    if view.tool is not None:
        _write_tool(box, view.tool)


def _write_call(box: Any, call: LLMCall) -> None:
    about = "≈" if call.estimated_tokens else ""
    box.caption(
        f"Model call: {about}{call.prompt_tokens} prompt tokens, "
        f"{about}{call.completion_tokens} generated, {call.ms:.0f} ms"
        + (f", {call.attempts} attempts" if call.attempts > 1 else "")
    )


def _write_tool(box: Any, step: ToolStep) -> None:
    box.markdown(f"**Tool** `{step.tool}` · {step.ms:.1f} ms")
    box.markdown("Arguments")
    box.code(json.dumps(step.input, ensure_ascii=False, indent=2, default=str), language="json")
    result = step.result
    if result is None:
        box.caption(md_block(step.output))
        return
    for query in result.queries:
        box.markdown(
            f"Cypher `{query.name}` ({query.mode}) · {query.rows} rows · {query.ms:.1f} ms"
        )
        box.code(query.cypher, language="cypher")
        if query.params:
            params = json.dumps(query.params, ensure_ascii=False, default=str)
            box.caption("Parameters: " + md(params))
    if result.message:
        box.caption(md_block(result.message))
    rows = table_rows(result.data)
    if rows:
        box.markdown("Rows returned")
        box.dataframe(rows[:MAX_TABLE_ROWS], hide_index=True)
    elif result.data is not None:
        box.markdown("Data returned")
        box.json(result.plain_data(), expanded=False)
