"""One Person per person: the enriched list spells some names two ways ("J. F. Lawton" and
"J.F. Lawton"); names with the same `normalize_name` key become one, spelled the way the list
spells it most often (the first spelling met on a tie)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from semantic_layer.normalize import normalize_name


def canonical_names(credits: Iterable[str]) -> dict[str, str]:
    """Each spelling met in `credits` (one entry per credit) -> the spelling to store."""
    counts = Counter(credits)
    best: dict[str, str] = {}
    for name, count in counts.items():  # first-met order: a tie keeps the first spelling
        key = normalize_name(name)
        if key not in best or count > counts[best[key]]:
            best[key] = name
    return {name: best[normalize_name(name)] for name in counts}


Credit = tuple[str, int]  # (name, movieId)


def merge_spellings(
    acted: dict[Credit, int], directed: dict[Credit, None]
) -> tuple[dict[Credit, int], dict[Credit, None]]:
    """The credits with every name in its stored spelling; a person credited under two
    spellings in one movie keeps one credit (the better billing order)."""
    canonical = canonical_names([name for name, _ in [*acted, *directed]])
    merged_acted: dict[Credit, int] = {}
    for (name, movie), order in acted.items():
        key = (canonical[name], movie)
        merged_acted[key] = min(order, merged_acted.get(key, order))
    merged_directed = dict.fromkeys((canonical[name], movie) for name, movie in directed)
    return merged_acted, merged_directed
