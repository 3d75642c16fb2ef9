"""A small picture of the subgraph behind an answer, as Graphviz DOT for `st.graphviz_chart`
(rendered in the browser: no Graphviz install needed).
"""

from __future__ import annotations

from typing import Any

from agent.result import ToolStep
from semantic_layer.tools.payloads import MovieCard, PersonCard, Recommendations

MAX_NEIGHBOURS = 8
STYLE = {
    "movie": 'shape=box style="rounded,filled" fillcolor="#fde2b8"',
    "focus": 'shape=box style="rounded,filled,bold" fillcolor="#f7a440"',
    "person": 'shape=ellipse style=filled fillcolor="#cfe3ff"',
    "genre": 'shape=note style=filled fillcolor="#d9f2d0"',
    "user": 'shape=circle style=filled fillcolor="#eeeeee"',
}


def subgraph_dot(step: ToolStep) -> str | None:
    """DOT for a movie, person or recommendations result; None where a picture would not help."""
    result = step.result
    if result is None or not result.ok:
        return None
    dot = _Dot()
    data = result.data
    if isinstance(data, MovieCard):
        _movie(dot, data)
    elif isinstance(data, PersonCard):
        _person(dot, data)
    elif isinstance(data, Recommendations):
        _recommendations(dot, step.input, data)
    return dot.render() if dot.edges else None


class _Dot:
    def __init__(self) -> None:
        self.nodes: dict[str, str] = {}
        self.edges: list[str] = []

    def node(self, kind: str, text: str) -> str:
        node_id = f"n{len(self.nodes)}"
        key = f"{kind}:{text}"
        if key not in self.nodes:
            self.nodes[key] = f'{node_id} [label="{_esc(text)}" {STYLE[kind]}]'
        return self.nodes[key].split(" ", 1)[0]

    def edge(self, a: str, b: str, text: str = "") -> None:
        attrs = f' [label="{_esc(text)}"]' if text else ""
        self.edges.append(f"{a} -> {b}{attrs}")

    def render(self) -> str:
        lines = [
            "digraph G {",
            '  graph [rankdir=LR bgcolor="transparent" fontname="sans-serif"]',
            '  node [fontname="sans-serif" fontsize=11]',
            '  edge [fontname="sans-serif" fontsize=9 color="#777777"]',
        ]
        lines += [f"  {n}" for n in self.nodes.values()]
        lines += [f"  {e}" for e in self.edges]
        return "\n".join([*lines, "}"])


def _movie(dot: _Dot, card: MovieCard) -> None:
    movie = dot.node("focus", card.label)
    for name in card.directors[:3]:
        dot.edge(dot.node("person", name), movie, "directed")
    for name in card.cast[:4]:
        dot.edge(dot.node("person", name), movie, "acted in")
    for genre in card.genres[:5]:
        dot.edge(movie, dot.node("genre", genre))


def _person(dot: _Dot, card: PersonCard) -> None:
    person = dot.node("focus", card.name)
    for title, films in (("directed", card.directed), ("acted in", card.acted_in)):
        for film in films[: MAX_NEIGHBOURS // 2]:
            dot.edge(person, dot.node("movie", film.label), title)


def _recommendations(dot: _Dot, arguments: dict[str, Any], data: Recommendations) -> None:
    sources = []
    if arguments.get("movie"):
        sources.append(dot.node("focus", str(arguments["movie"])))
    if arguments.get("genre"):
        sources.append(dot.node("genre", str(arguments["genre"])))
    if not sources:
        sources.append(dot.node("user", "you"))
    for movie in data.recommendations[:MAX_NEIGHBOURS]:
        target = dot.node("movie", movie.label)
        for source in sources:
            dot.edge(source, target, _short(movie.why))


def _short(text: str | None, limit: int = 28) -> str:
    if not text:
        return ""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _esc(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ")
