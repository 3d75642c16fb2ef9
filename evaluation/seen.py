"""What a user sees in one answer, counted per question: names and relations no returned row
holds, writes nobody asked for, answers that stop mid-sentence, and the answer's language.

Both subjects (our agent and the baseline) are read the same way: the answer is linked to the
graph and checked against the data of the tool results of that question
(`agent.grounded.unsupported`; a tool's help text is not data), and its language read as the
agent reads it before answering (`agent.grounded.answer_language`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from agent.grounded import answer_language as answer_language  # read as the agent reads it
from agent.grounded import unsupported
from semantic_layer.resolve.reader import Reader
from semantic_layer.tools.result import ToolResult

_UNFINISHED = re.compile(r"[,;:\-\u2013\u2014(]\s*$")  # where the text was to go on


def invented(
    answer: str, results: Sequence[ToolResult | None], graph: Reader | None, said: str = ""
) -> list[str]:
    """The movies, people, relations, years and ratings `answer` states that no row of `results`
    holds; `said`: the user's words, whose numbers an answer may repeat."""
    return unsupported(answer, results, graph, question=said) if answer.strip() else []


def cut(answer: str, ending: str, rendered: bool = False) -> bool:
    """Whether the answer the user sees stops mid-sentence: the model's, ended at the token
    limit, or any answer that ends on a comma, a colon or an open bracket. An answer rendered
    from the rows in place of the model's (`rendered`) is whole however the model's ended."""
    return (ending == "length" and not rendered) or bool(_UNFINISHED.search(answer))


def writes(results: Sequence[ToolResult | None]) -> list[str]:
    """The tools whose call wrote to the graph (ran a write query), in order: a write-mode tool
    that only read (the memory tool answering an ambiguous title with candidates) wrote
    nothing."""
    return [r.tool for r in results if r is not None and wrote(r)]


def wrote(result: ToolResult | None) -> bool:
    """Whether a call wrote to the graph: it ran a write query."""
    return result is not None and any(q.mode == "write" for q in result.queries)
