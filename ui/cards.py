"""Recommendations, movie facts, people and ratings as cards and tables, not only prose."""

from __future__ import annotations

import streamlit as st

from agent.result import ToolStep
from semantic_layer.tools.payloads import (
    MovieCard,
    PersonCard,
    Recommendation,
    Recommendations,
    Record,
    Rows,
    StoredRating,
)
from semantic_layer.tools.result import ToolResult
from ui.escape import md
from ui.rows import table_rows

CARD_COLUMNS = 3
MAX_CARDS = 9
MAX_FILMS = 12


def render_results(steps: list[ToolStep]) -> None:
    """Cards for every successful tool result of one answer."""
    for step in steps:
        if step.result is not None and step.result.ok:
            render_result(step.result)


def render_result(result: ToolResult) -> None:
    data = result.data
    if isinstance(data, Recommendations):
        _recommendations(data.recommendations)
    elif isinstance(data, MovieCard):
        _movie(data)
    elif isinstance(data, PersonCard):
        _person(data)
    elif isinstance(data, StoredRating):
        _rating(data)
    elif isinstance(data, (Rows, Record)):
        rows = table_rows(data)
        if rows:
            st.dataframe(rows, hide_index=True)


def _recommendations(items: list[Recommendation]) -> None:
    movies = items[:MAX_CARDS]
    if not movies:
        return
    columns = st.columns(min(CARD_COLUMNS, len(movies)))
    for i, movie in enumerate(movies):
        with columns[i % len(columns)].container(border=True):
            st.markdown(f"**{md(movie.label)}**")
            _genres_and_rating(movie.genres, _rating_line(movie.rating_avg, movie.rating_count))
            if movie.why:
                st.caption(f"Why: {md(movie.why)}")


def _movie(card: MovieCard) -> None:
    with st.container(border=True):
        st.markdown(f"### {md(card.label)}")
        line = _rating_line(card.rating_avg, card.rating_count, card.imdb_rating, card.your_rating)
        _genres_and_rating(card.genres, line)
        for title, values in (("Also known as", card.also_known_as), ("Directed by", card.directors),
                              ("Cast", card.cast), ("Tags", card.tags),
                              ("Other films of this title", card.same_title)):  # fmt: skip
            if values:
                st.markdown(f"**{title}:** {', '.join(map(md, values))}")


def _genres_and_rating(genres: list[str], rating: str | None) -> None:
    if genres:
        st.caption(" · ".join(map(md, genres)))
    if rating:
        st.markdown(rating)


def _person(card: PersonCard) -> None:
    with st.container(border=True):
        st.markdown(f"### {md(card.name)}")
        for title, films in (("Directed", card.directed), ("Acted in", card.acted_in)):
            if films:
                labels = [film.label for film in films[:MAX_FILMS]]
                st.markdown(f"**{title}:** {', '.join(map(md, labels))}")


def _rating(stored: StoredRating) -> None:
    st.success(f"Remembered: {md(stored.label)} ★ {stored.rating:.1f}")


def _rating_line(
    avg: float | None,
    count: int | None,
    imdb: float | None = None,
    mine: float | None = None,
) -> str | None:
    parts = []
    if avg is not None:
        parts.append(f"★ {avg:.2f}" + (f" ({count} ratings)" if count else ""))
    if imdb is not None:
        parts.append(f"IMDb {imdb:.1f}")
    if mine is not None:
        parts.append(f"you rated it ★ {mine:.1f}")
    return " · ".join(parts) or None
