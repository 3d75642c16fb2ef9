"""The sidebar: who am I, my ratings, example questions, backends and their health, reset.

"Who am I?" offers the person at the page (signed in, or the local user; see `ui.identity`) as
their own app user, and any MovieLens user as a read-only demo: that session refuses every write
(`Session.read_only`), and its ratings come without remove buttons.
"""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from agent.llm.base import LLMHealth
from semantic_layer import user_ratings
from semantic_layer.errors import SemanticLayerError
from semantic_layer.graph import Graph
from semantic_layer.graph_stats import GraphHealth
from semantic_layer.session import Session
from semantic_layer.users import account_user_id
from ui import health, state
from ui.escape import md
from ui.identity import Person
from ui.services import Services

EXAMPLES = (
    "Something like Heat but funnier",
    "Who directed Casino?",
    "I loved The Matrix, remember that: 5 stars",
    "Recommend me a good comedy",
    "What should I watch tonight?",
)
ME, MOVIELENS_USER = "Me", "A MovieLens user (read-only demo)"
SHOWN_RATINGS = 20


@dataclass
class Slots:
    """Sidebar places filled at the end of the run, after the question has been answered."""

    ratings: DeltaGenerator
    backends: DeltaGenerator


def render(services: Services, graph: GraphHealth, person: Person) -> tuple[Session | None, Slots]:
    """Draw the sidebar; return the session (None until the graph is loaded)."""
    bar = st.sidebar
    bar.header(":material/movie: movieagent")
    bar.subheader("Who am I?")
    session = _who_am_i(services, graph, person)
    if person.signed_in:
        bar.button("Sign out", key="logout", on_click=st.logout)
    slots = Slots(ratings=bar.container(), backends=bar.container())
    bar.subheader("Try asking")
    for i, example in enumerate(EXAMPLES):
        bar.button(
            example,
            key=f"example-{i}",
            on_click=state.ask,
            args=(example,),
            disabled=not graph.loaded,
            width="stretch",
        )
    bar.divider()
    bar.button("Reset the conversation", key="reset", on_click=_reset, width="stretch")
    return session, slots


def render_ratings(slot: DeltaGenerator, graph: Graph | None, session: Session | None) -> None:
    """The session user's ratings, newest first, each with a remove button (none in a demo)."""
    if graph is None or session is None:
        return
    if session.is_guest:
        slot.subheader("My ratings (0)")
        slot.caption('None yet. Tell me what you liked: "I loved The Matrix, 5 stars".')
        return
    user_id = session.user_id
    try:
        ratings = user_ratings.list_ratings(graph, user_id, limit=SHOWN_RATINGS)
        total = user_ratings.count_ratings(graph, user_id)
    except SemanticLayerError as e:
        slot.caption(f"My ratings are not available: {e}")
        return
    slot.subheader(f"My ratings ({total})")
    if not ratings:
        slot.caption('None yet. Tell me what you liked: "I loved The Matrix, 5 stars".')
    for r in ratings:
        if session.read_only:
            slot.markdown(f"{md(r.label)} · ★ {r.rating:g}")
            continue
        text, remove = slot.columns([5, 1], vertical_alignment="center")
        text.markdown(f"{md(r.label)} · ★ {r.rating:g}")
        remove.button(
            "✕",
            key=f"remove-{user_id}-{r.movie_id}",
            help=f"Forget my rating of {md(r.label)}",
            on_click=_remove,
            args=(graph, session, r.movie_id),
        )
    if total > len(ratings):
        slot.caption(f"… and {total - len(ratings)} older ones.")


def render_backends(
    slot: DeltaGenerator, services: Services, graph: GraphHealth, llm: LLMHealth
) -> None:
    slot.subheader("Backends")
    if graph.loaded:
        graph_state = f":material/check_circle: {graph.movies:,} movies, {graph.users:,} users, {graph.ratings:,} ratings"
    elif graph.reachable:
        graph_state = ":material/warning: reachable, no data loaded"
    else:
        graph_state = ":material/error: not reachable"
    slot.markdown(f"**Graph** · {md(services.graph_label)}  \n{graph_state}")
    model = f" · model {md(llm.model)}" if llm.model else ""
    llm_state = (
        f":material/check_circle: reachable{model}"
        if llm.reachable
        else ":material/error: not reachable"
    )
    if llm.reachable and llm.unconstrained:
        llm_state += f"  \n:material/warning: {md(llm.unconstrained)}"
    slot.markdown(f"**LLM** · {md(services.llm_label)}  \n{llm_state}")
    if llm.note:  # e.g. the embedded model restarted after a crash
        slot.caption(md(llm.note))


def _who_am_i(services: Services, graph: GraphHealth, person: Person) -> Session | None:
    bar = st.sidebar
    if services.graph is None or not graph.loaded:
        bar.caption("Available once the graph holds MovieLens.")
        return None
    mode = bar.radio(
        "Who am I?",
        (ME, MOVIELENS_USER),
        key="who",
        label_visibility="collapsed",
    )
    if mode == MOVIELENS_USER:
        return _demo_user(services.graph)
    return _my_session(services.graph, person)


def _my_session(graph: Graph, person: Person) -> Session | None:
    """The person's own app user, found or made once per browser session."""
    key = f"session:{person.account}"
    session: Session | None = state.get(key)
    if session is None:
        try:
            user_id = account_user_id(graph, person.account)
        except SemanticLayerError as e:
            st.sidebar.caption(f"Your user is not available: {md(e)}")
            return None
        session = st.session_state.setdefault(
            key, Session(user_id=user_id, display_name=person.name)
        )
    st.sidebar.caption(
        f"You are user #{session.user_id} ({md(person.name)}); what you rate is remembered."
    )
    return session


def _demo_user(graph: Graph) -> Session | None:
    bar = st.sidebar
    try:
        ids = state.get("movielens_ids") or user_ratings.movielens_user_ids(graph)
    except SemanticLayerError as e:
        bar.caption(f"MovieLens users are not available: {md(e)}")
        return None
    st.session_state["movielens_ids"] = ids
    chosen = bar.selectbox("MovieLens user id", ids, key="movielens_user")
    if chosen is None:
        return None
    bar.caption(
        f"Read-only demo of MovieLens user #{chosen}: recommendations use their ratings; "
        "nothing can be rated or removed in their name."
    )
    return Session(user_id=int(chosen), read_only=True)


def _remove(graph: Graph, session: Session, movie_id: int) -> None:
    try:
        user_ratings.remove_rating(graph, session, movie_id)
    except SemanticLayerError as e:
        st.session_state["notice"] = f"Could not remove the rating: {e}"


def _reset() -> None:
    state.reset_chat()
    health.forget()
