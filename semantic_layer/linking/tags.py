"""Tags a text names: runs of its words that are, in lower case, the name of a tag viewers gave
movies in the graph (`Tag.name`, looked up through its index; the graph's own values, no list),
given often enough to be a way people find films (`MIN_TAG_USES`).

A run inside a movie or person mention is no tag ("dark" in "The Dark Knight"), nor is one a
genre mention takes whole: "horror" is the genre Horror (the graph's classification of the
film) before it is the word some viewers tagged films with, so "Best horror movies of the
80s?" names no tag. Of overlapping runs the longest is kept ("dark comedy", not "dark").
"""

from __future__ import annotations

from collections.abc import Sequence

from semantic_layer.linking.mentions import GenreMention, TagMention
from semantic_layer.linking.tokens import Span, Word, spans
from semantic_layer.resolve.reader import Reader

MAX_TAG_WORDS = 4  # the longest tag looked for, in words
# a tag given fewer times than this in all is a word someone once wrote ("movies", by one
# viewer), not one people find films by
MIN_TAG_USES = 5


def tag_mentions(
    graph: Reader,
    text: str,
    found: list[Word],
    taken: Sequence[Span],
    genres: Sequence[GenreMention],
) -> list[TagMention]:
    """The tags `text` names, in its order; not inside `taken` (strong movie and person
    mentions) nor the very words of a genre mention."""
    runs = [
        run for run in spans(text, found, range(1, MAX_TAG_WORDS + 1))
        if not any(t.start <= run.start and run.end <= t.end for t in taken)
        and not any((g.start, g.end) == (run.start, run.end) for g in genres)
    ]  # fmt: skip
    if not runs:
        return []
    names = {_name(run) for run in runs}
    params = {"names": sorted(names), "uses": MIN_TAG_USES}
    held = {row["name"] for row in graph.read("resolve/tags_named", params)}
    hits = sorted((run for run in runs if _name(run) in held), key=lambda r: -r.size)
    kept: list[Span] = []
    for run in hits:
        if not any(run.overlaps(other) for other in kept):
            kept.append(run)
    return [
        TagMention(text=run.text, start=run.start, end=run.end, tag=_name(run))
        for run in sorted(kept, key=lambda r: r.start)
    ]


def _name(run: Span) -> str:
    """A run of words as a Tag's name is kept: trimmed, lower case."""
    return run.text.strip().lower()
