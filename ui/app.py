"""The chat page. `movieagent ui` runs this file with `streamlit run`.

Rendering only: the clients come from `ui.services` (`st.cache_resource`), the conversation
lives in `st.session_state`, and every answer comes from the agent's events.
"""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from ui import chat, health, identity, sidebar, state
from ui.escape import md_block
from ui.services import Services, load_services


def main(load: Callable[[], Services] = load_services) -> None:
    st.set_page_config(page_title="movieagent", page_icon="🎬", layout="centered")
    person = identity.current_person()  # the sign-in page, or the refusal, stops here
    services = load()
    graph = health.graph_health(services)
    st.title(":material/movie: movieagent")
    st.caption(
        "Ask about movies in plain language. Answers come from the MovieLens graph; "
        "open a step to see the tool, its Cypher and the rows it returned."
    )
    session, slots = sidebar.render(services, graph, person)
    notices = st.container()
    if not graph.reachable:
        notices.error(graph.detail)
    elif not graph.loaded:
        notices.warning(graph.detail)
    if services.llm is None:
        notices.error(services.llm_error or "No LLM is configured.")
    notice = st.session_state.pop("notice", None)
    if notice:
        notices.warning(md_block(notice))

    ready = graph.loaded and services.llm is not None and session is not None
    typed = st.chat_input("Ask about movies…", disabled=not ready)  # pinned to the bottom
    question = typed or (state.take_pending() if ready else None)
    chat.render_history(answering=bool(question))
    if question and session is not None:
        chat.run_turn(services, question, session)

    sidebar.render_ratings(slots.ratings, services.graph, session)
    llm = health.llm_health(services)
    sidebar.render_backends(slots.backends, services, graph, llm)
    if services.llm is not None and not llm.reachable:
        notices.error(llm.detail or f"{services.llm_label} cannot be reached.")


if __name__ == "__main__":
    main()
