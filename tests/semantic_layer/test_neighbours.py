"""The recommender's neighbourhoods in memory give what the queries alone give, and follow an
import (a change of the SIMILAR edges)."""

from __future__ import annotations

from typing import Any

import pytest

from semantic_layer.recommend.neighbour_cache import NeighbourCache
from semantic_layer.session import GUEST_USER_ID, Session
from semantic_layer.tools import ToolContext
from semantic_layer.tools.recommender import Recommender


@pytest.fixture(scope="module")
def warmed(tools_graph: Any) -> NeighbourCache:
    cache = NeighbourCache()
    assert cache.warm(tools_graph) is not None
    return cache


def _lists(tool: Recommender, graph: Any, user: int, arguments: dict[str, Any]) -> Any:
    result = tool.run(arguments, ToolContext(graph, Session(user_id=user)))
    return [(r.movie_id, r.why) for r in result.data.recommendations], result


@pytest.mark.parametrize(
    ("user", "arguments"),
    [
        (3, {}),
        (1, {}),
        (414, {"limit": 25}),  # the heaviest rater
        (1, {"movies": ["Heat"]}),
        (1, {"year_from": 1990, "year_to": 1999}),
        (21, {"popularity": "hidden_gems", "limit": 20}),
        (GUEST_USER_ID, {"genres": ["Drama"]}),  # the best-rated pool alone
        (GUEST_USER_ID, {"genres": ["Comedy", "Crime"], "exclude_genres": ["Drama"]}),
        (414, {"genres": ["Film-Noir"], "year_from": 1990, "year_to": 1999}),  # loosened
        (1, {"people": ["Tom Hanks"], "limit": 15}),
        (1, {"movies": ["Casablanca"], "genres": ["Western"], "popularity": "well_known"}),
    ],
)
def test_in_memory_gives_what_the_queries_give(
    tools_graph: Any, warmed: NeighbourCache, user: int, arguments: dict[str, Any]
) -> None:
    memory, result = _lists(Recommender(warmed), tools_graph, user, arguments)
    queries, _ = _lists(Recommender(None), tools_graph, user, arguments)
    assert memory and memory == queries
    names = {q.name for q in result.queries}
    assert "recommend/by_taste" not in names and "recommend/taste_of" not in names
    assert not names & {"recommend/pool_catalogue", "recommend/pool_by_genre"}


def test_in_memory_checks_every_genre_on_all_candidates(
    tools_graph: Any, warmed: NeighbourCache, csv_ratings: Any
) -> None:
    arguments = {"genres": ["Western"], "exclude_genres": ["Comedy"], "limit": 20}
    memory, result = _lists(Recommender(warmed), tools_graph, 1, arguments)
    recs = result.data.recommendations
    assert len(recs) == 20
    assert all("Western" in r.genres and "Comedy" not in r.genres for r in recs)
    assert not {r.movie_id for r in recs} & set(csv_ratings.by_user[1])
    queries, _ = _lists(Recommender(None), tools_graph, 1, arguments)
    taste = [m for m, why in memory if why.startswith("because you liked")]
    assert len(taste) >= len([m for m, why in queries if why.startswith("because you liked")])


def test_a_graph_nobody_warmed_is_served_by_the_queries(tools_graph: Any) -> None:
    assert NeighbourCache().get(tools_graph) is None


def test_a_change_of_the_edges_loads_them_again(writable: Any) -> None:
    cache = NeighbourCache()
    before = cache.warm(writable)
    assert before is not None and cache.get(writable) is before
    writable.write("test/drop_one_similar")
    assert cache.get(writable) is not before  # the old copy is never served again
    after = cache.warm(writable)
    assert after is not None and after.edges <= before.edges
