"""The conversation: past turns from `st.session_state`, and a new turn streamed live."""

from __future__ import annotations

import streamlit as st

from agent.errors import AgentError
from agent.events import AnswerToken, FinalAnswer
from semantic_layer.errors import SemanticLayerError
from semantic_layer.session import Session
from ui import state
from ui.cards import render_results
from ui.escape import md, md_block
from ui.services import Services
from ui.state import Turn
from ui.steps import LiveSteps, render_steps
from ui.subgraph import subgraph_dot

CURSOR = "▌"


def render_history(answering: bool = False) -> None:
    """Past turns; the last one offers its candidate buttons unless a new question is running."""
    turns = state.turns()
    for i, turn in enumerate(turns):
        with st.chat_message("user"):
            st.markdown(md_block(turn.question))
        with st.chat_message("assistant"):
            render_steps(turn.steps)
            _answer(turn)
            _extras(turn, i, last=not answering and i == len(turns) - 1)


def run_turn(services: Services, question: str, session: Session) -> Turn:
    """Ask the agent, drawing its steps and the answer as they come; keep the turn."""
    index = len(state.turns())
    with st.chat_message("user"):
        st.markdown(md_block(question))
    with st.chat_message("assistant"):
        steps_area, answer_box = st.container(), st.empty()
        live = LiveSteps(steps_area)
        turn = Turn(question=question)
        text = ""
        try:
            agent = services.agent()
            for event in agent.stream(question, state.history(), services.context(session)):
                live.handle(event)
                if isinstance(event, AnswerToken):
                    text += event.text
                    answer_box.markdown(md_block(text) + CURSOR)
                elif isinstance(event, FinalAnswer):
                    turn.result, turn.answer = event.result, event.answer
                    turn.error = event.result.error
        except (AgentError, SemanticLayerError) as e:
            turn.answer, turn.error = str(e), str(e)
        turn.steps = live.views
        with answer_box.container():
            _answer(turn)
        state.turns().append(turn)
        _extras(turn, index, last=True)
    return turn


def clarified(question: str, label: str) -> str:
    """The question again, with the candidate the user picked."""
    return f"{question.rstrip()} (I mean {label})"


def _answer(turn: Turn) -> None:
    if turn.error:
        st.error(md_block(turn.error))
    else:
        st.markdown(md_block(turn.answer))


def _extras(turn: Turn, index: int, last: bool) -> None:
    result = turn.result
    if result is None:
        return
    render_results(result.steps)
    for step in result.steps:
        dot = subgraph_dot(step)
        if dot:
            with st.expander("The graph behind this answer", expanded=last):
                st.graphviz_chart(dot)
            break
    if last and result.candidates:
        st.caption("Which one do you mean?")
        columns = st.columns(len(result.candidates))
        for j, candidate in enumerate(result.candidates):
            columns[j].button(
                md(candidate.label),
                key=f"candidate-{index}-{j}",
                on_click=state.ask,
                args=(clarified(turn.question, candidate.label),),
            )
