"""Untrusted text is shown literally (issue 11, finding 11): titles, tags, tool messages and
answers never become Markdown links, images, HTML or emphasis on the page."""

from __future__ import annotations

import re
from typing import Any

from streamlit.testing.v1 import AppTest

from semantic_layer.tools.payloads import Basis, MovieCard, Recommendation, Recommendations
from semantic_layer.tools.result import ToolResult
from tests.agent.fakes import ScriptedLLM, call, final, information, recommender
from tests.ui import harness
from ui.escape import md, md_block

HOSTILE = ["[x](http://e)", "![i](http://e/i.png)", "M*A*S*H", "<img src=x onerror=alert(1)>"]
LINK = re.compile(r"(?<!\\)\[[^\]]*(?<!\\)\]\(")  # [text]( with neither bracket escaped


def test_md_escapes_links_images_html_and_emphasis() -> None:
    assert md("M*A*S*H") == "M\\*A\\*S\\*H"
    assert not LINK.search(md("[x](http://e)")) and not LINK.search(md("![i](http://e/i.png)"))
    assert md("<b>") == "\\<b\\>"
    assert md("Heat (1995)") == "Heat (1995)"  # plain titles stay as they are
    assert md_block("1. one\n# two") == "1\\. one  \n\\# two"


def test_hostile_titles_tags_and_answers_are_shown_literally(
    app: AppTest, writable_graph: Any
) -> None:
    recs = recommender()
    recs.results.append(
        ToolResult(
            tool="recommender",
            kind="recommendations",
            message="Because of [x](http://e)",
            data=Recommendations(
                basis=Basis(),
                recommendations=[
                    Recommendation(
                        movie_id=i, title=t, year=1970, genres=["War", "*Comedy*"], why=t
                    )
                    for i, t in enumerate(HOSTILE)
                ],
            ),
        )
    )
    info = information()
    info.results.append(
        ToolResult(
            tool="information",
            kind="movie",
            data=MovieCard(
                movie_id=5060,
                title="M*A*S*H",
                year=1970,
                tags=["[x](http://e)"],
                cast=["<b>x</b>"],
            ),
        )
    )
    llm = ScriptedLLM(
        call("recommender", movie="M*A*S*H"),
        call("information", entity="M*A*S*H"),
        final("See ![i](http://e/i.png) and [x](http://e): M*A*S*H"),
    )
    harness.current = harness.scripted(writable_graph, llm, [recs, info])
    app.run()
    app.chat_input[0].set_value("Something like [x](http://e) M*A*S*H").run()
    assert not app.exception
    page = harness.page_text(app)
    assert "M\\*A\\*S\\*H" in page
    assert "**M\\*A\\*S\\*H (1970)**" in page  # our own bold stays, the title's stars do not
    assert "\\[x\\](http\\://e)" in page and "!\\[i\\](http\\://e/i.png)" in page
    assert not LINK.search(page)
    assert not re.search(r"(?<!\\)<", page)  # no HTML tag left unescaped
    assert "M*A*S*H" not in page.replace("\\*", "")  # every star escaped
