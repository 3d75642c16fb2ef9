"""Recommendations, movie facts, people and ratings as cards and tables, not only prose."""

from __future__ import annotations

from typing import Any

import streamlit as st

from agent.result import ToolStep
from semantic_layer.tools.result import ToolResult
from ui import fields as f
from ui.escape import md

CARD_COLUMNS = 3
MAX_CARDS = 9


def render_results(steps: list[ToolStep]) -> None:
    """Cards for every successful tool result of one answer."""
    for step in steps:
        if step.result is not None and step.result.ok:
            render_result(step.result)


def render_result(result: ToolResult) -> None:
    if result.kind == "recommendations":
        _recommendations(f.items(result.data))
    elif result.kind == "movie":
        _movie(result.data)
    elif result.kind == "person":
        _person(result.data)
    elif result.kind == "rating":
        _rating(result)
    elif result.kind in ("ratings", "rows"):
        rows = [r for r in f.items(result.data) if isinstance(r, dict)]
        if rows:
            st.dataframe(rows, hide_index=True)


def _recommendations(items: list[Any]) -> None:
    movies = [m for m in items if isinstance(m, dict)][:MAX_CARDS]
    if not movies:
        return
    columns = st.columns(min(CARD_COLUMNS, len(movies)))
    for i, movie in enumerate(movies):
        with columns[i % len(columns)].container(border=True):
            st.markdown(f"**{md(f.label(movie))}**")
            _genres_and_rating(movie)
            reason = f.why(f.get(movie, f.WHY))
            if reason:
                st.caption(f"Why: {md(reason)}")


def _movie(data: Any) -> None:
    if not isinstance(data, dict):
        return
    with st.container(border=True):
        st.markdown(f"### {md(f.label(data))}")
        _genres_and_rating(data)
        for title, keys in (("Also known as", f.AKA), ("Directed by", f.DIRECTORS),
                            ("Cast", f.CAST), ("Tags", f.TAGS)):  # fmt: skip
            values = f.names(f.get(data, keys))
            if values:
                st.markdown(f"**{title}:** {', '.join(map(md, values))}")


def _genres_and_rating(movie: dict[str, Any]) -> None:
    genres = f.names(f.get(movie, f.GENRES))
    if genres:
        st.caption(" · ".join(map(md, genres)))
    rating = _rating_line(movie)
    if rating:
        st.markdown(rating)


def _person(data: Any) -> None:
    if not isinstance(data, dict):
        return
    with st.container(border=True):
        st.markdown(f"### {md(f.get(data, ('name', 'person'), '?'))}")
        for title, keys in (("Directed", f.DIRECTED), ("Acted in", f.ACTED)):
            values = f.names(f.get(data, keys), limit=12)
            if values:
                st.markdown(f"**{title}:** {', '.join(map(md, values))}")


def _rating(result: ToolResult) -> None:
    data = result.data if isinstance(result.data, dict) else {}
    stars = f.number(f.get(data, ("rating", "stars")))
    what = md(f.label(data)) if f.get(data, f.TITLE) else "the movie"
    st.success(f"Remembered: {what} ★ {stars}" if stars else md(result.message or "Remembered."))


def _rating_line(movie: dict[str, Any]) -> str | None:
    parts = []
    avg = f.number(f.get(movie, f.RATING), 2)
    if avg:
        count = f.number(f.get(movie, f.COUNT))
        parts.append(f"★ {avg}" + (f" ({count} ratings)" if count else ""))
    imdb = f.number(f.get(movie, f.IMDB))
    if imdb:
        parts.append(f"IMDb {imdb}")
    mine = f.number(f.get(movie, ("yourRating",)))
    if mine:
        parts.append(f"you rated it ★ {mine}")
    return " · ".join(parts) or None
