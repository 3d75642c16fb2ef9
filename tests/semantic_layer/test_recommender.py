"""Recommender against collaborative filtering computed with plain Python from ratings.csv, and
its constraints checked against the graph's own data."""

from __future__ import annotations

from typing import Any

import pytest

from semantic_layer.errors import ToolArgumentsError
from semantic_layer.recommend import ranking, taste
from semantic_layer.session import Session
from semantic_layer.tools.payloads import Recommendations
from tests.semantic_layer.bound import bound_tools

FORREST_GUMP, HEAT, FINDING_NEMO = 356, 6, 6377


def _recommender(graph: Any, user_id: int) -> Any:
    return bound_tools(graph, Session(user_id=user_id))["recommender"]


def _edges(graph: Any, movie_id: int) -> list[dict[str, Any]]:
    """The movie's SIMILAR edges as the import wrote them, in rank order."""
    return graph.read("test/similar_by_id", {"movieId": movie_id})


def _people(graph: Any, names: list[str]) -> set[int]:
    return {r["movieId"] for r in graph.read("recommend/people_movies", {"people": names})}


@pytest.mark.parametrize("movie_id", [FORREST_GUMP, HEAT])
def test_like_one_movie_follows_the_similar_ranks_and_says_true_support(
    tools_graph: Any, csv_co_likes: Any, movie_id: int
) -> None:
    guest = _recommender(tools_graph, 0)  # a guest has rated nothing: nothing is excluded
    title = {FORREST_GUMP: "Forrest Gump (1994)", HEAT: "Heat (1995)"}[movie_id]
    result = guest.invoke({"movies": [title.split(" (")[0]]})
    assert result.ok and result.kind == "recommendations"
    expected = [e["movieId"] for e in _edges(tools_graph, movie_id)][:10]
    recs = result.data.recommendations
    assert [r.movie_id for r in recs] == expected
    for rec in recs:  # the count said is the plain-Python count of viewers who liked both
        support = csv_co_likes[movie_id][rec.movie_id]
        assert rec.why.startswith(f"liked by {support} viewers who liked {title}")
    assert movie_id not in expected


def test_a_title_films_share_is_its_best_known_film_and_the_basis_names_the_others(
    tools_graph: Any,
) -> None:
    result = _recommender(tools_graph, 0).invoke({"movies": ["Gladiator"]})
    assert result.ok and result.kind == "recommendations"
    basis = result.data.basis
    assert (basis.movie, basis.movie_id) == ("Gladiator (2000)", 3578)
    assert basis.same_title == ["Gladiator (1992)"] and basis.note is None
    assert result.data.recommendations


def test_like_a_movie_leaves_out_what_the_user_rated_and_ranks_by_their_taste(
    tools_graph: Any, csv_ratings: Any
) -> None:
    rated = csv_ratings.by_user[1]
    recs = _recommender(tools_graph, 1).invoke({"movies": ["Forrest Gump"]}).data.recommendations
    neighbours = [e["movieId"] for e in _edges(tools_graph, FORREST_GUMP)]
    assert len(recs) == 10
    assert all(r.movie_id in neighbours and r.movie_id not in rated for r in recs)
    other = _recommender(tools_graph, 2).invoke({"movies": ["Forrest Gump"]}).data
    assert [r.movie_id for r in recs] != [r.movie_id for r in other.recommendations]


def test_like_two_movies_puts_their_shared_neighbours_first(tools_graph: Any) -> None:
    result = _recommender(tools_graph, 0).invoke({"movies": ["Heat", "Collateral"]})
    heat = {e["movieId"] for e in _edges(tools_graph, HEAT)}
    [collateral] = tools_graph.read("resolve/movie_by_norm", {"titleNorm": "collateral"})
    both = heat & {e["movieId"] for e in _edges(tools_graph, collateral["movieId"])}
    recs = result.data.recommendations
    assert recs[0].movie_id in both
    assert "Heat (1995) and Collateral (2004)" in recs[0].why
    assert result.data.basis.movies == ["Heat (1995)", "Collateral (2004)"]


def test_by_genre_for_a_guest_is_well_rated_and_in_the_genre(
    tools_graph: Any, csv_ratings: Any
) -> None:
    result = _recommender(tools_graph, 0).invoke({"genres": ["film noir"]})
    recs = result.data.recommendations
    assert recs and all("Film-Noir" in r.genres for r in recs)
    assert all(csv_ratings.count[r.movie_id] >= 10 for r in recs)
    scores = [(r.rating_count * r.rating_avg + 35) / (r.rating_count + 10) for r in recs]
    assert scores == sorted(scores, reverse=True)
    assert all(r.why.startswith("rated ") for r in recs)


def test_inside_a_genre_two_users_get_their_own_taste(tools_graph: Any, csv_ratings: Any) -> None:
    lists = {}
    for user in (1, 2):
        recs = _recommender(tools_graph, user).invoke({"genres": ["Drama"]}).data.recommendations
        assert len(recs) == 10 and all("Drama" in r.genres for r in recs)
        assert all(r.movie_id not in csv_ratings.by_user[user] for r in recs)
        assert all(r.why.startswith("because you liked ") for r in recs)
        lists[user] = [r.movie_id for r in recs]
    guest = _recommender(tools_graph, 0).invoke({"genres": ["Drama"]}).data.recommendations
    assert lists[1] != lists[2]
    assert lists[1] != [r.movie_id for r in guest] != lists[2]


def test_every_result_satisfies_every_constraint(tools_graph: Any, csv_ratings: Any) -> None:
    arguments = {"genres": ["Crime", "Drama"], "exclude_genres": ["Comedy"],
                 "year_from": 1990, "year_to": 1999, "people": ["Al Pacino"], "limit": 5}  # fmt: skip
    result = _recommender(tools_graph, 1).invoke(arguments)
    recs = result.data.recommendations
    pacino = _people(tools_graph, ["Al Pacino"])
    assert recs and not result.data.basis.loosened
    for rec in recs:
        assert {"Crime", "Drama"} <= set(rec.genres) and "Comedy" not in rec.genres
        assert 1990 <= rec.year <= 1999 and rec.movie_id in pacino
        assert rec.movie_id not in csv_ratings.by_user[1]
        assert "the 1990s" in rec.why and "with Al Pacino" in rec.why
    assert "Crime and Drama" in result.message and "the 1990s" in result.message


@pytest.mark.parametrize("popularity", ["well_known", "hidden_gems"])
def test_popularity_bands_hold(tools_graph: Any, popularity: str) -> None:
    result = _recommender(tools_graph, 1).invoke({"genres": ["Comedy"], "popularity": popularity})
    counts = [r.rating_count for r in result.data.recommendations]
    assert len(counts) == 10 and not result.data.basis.loosened
    # 610 viewers: well known = 24+ ratings (4 %), hidden gems = 3 to 23 (0.5 % to 4 %)
    assert (
        all(c >= 24 for c in counts)
        if popularity == "well_known"
        else all(3 <= c < 24 for c in counts)
    )


def test_too_few_matches_loosen_the_years_and_say_so(tools_graph: Any) -> None:
    arguments = {"genres": ["Film-Noir"], "year_from": 2000, "year_to": 2001}
    result = _recommender(tools_graph, 0).invoke(arguments)
    data = result.data
    assert data.basis.loosened and "years widened from 2000-2001" in data.basis.loosened
    assert "loosened" in result.message
    strict = [r for r in data.recommendations if "loosened" not in r.why]
    loose = [r for r in data.recommendations if "loosened" in r.why]
    assert len(strict) < 5 <= len(data.recommendations) and loose
    assert all(2000 <= r.year <= 2001 for r in strict)
    assert all("Film-Noir" in r.genres for r in data.recommendations)  # genres stay


def test_a_movie_named_is_never_among_its_own_picks(tools_graph: Any) -> None:
    # few films are like it and by him: the best rated of his fill the list, never it
    arguments = {"movies": ["Good Will Hunting"], "people": ["Gus Van Sant"]}
    result = _recommender(tools_graph, 0).invoke(arguments)
    titles = [r.title for r in result.data.recommendations]
    assert len(titles) >= 5 and "Good Will Hunting" not in titles


def test_the_model_reads_of_a_row_what_the_message_does_not_say(tools_graph: Any) -> None:
    arguments = {"genres": ["Film-Noir"], "year_from": 2000, "year_to": 2001}
    result = _recommender(tools_graph, 0).invoke(arguments)
    assert "Film-Noir" in result.message and "2000-2001" in result.message
    rows = result.model_data()["recommendations"]
    for rec, row in zip(result.data.recommendations, rows, strict=True):
        assert f"rated {rec.rating_avg:.1f}/5 by {rec.rating_count} viewers" in row["why"]
        if "loosened" in rec.why:  # a loosened pick says which year it is and what gave way
            assert str(rec.year) in row["why"] and "loosened: years widened" in row["why"]
            assert "Film-Noir" in row["why"]
        else:  # a pick that meets them all: the message says the genre and the years
            assert "Film-Noir" not in row["why"] and "2000-2001" not in row["why"]
            assert "Film-Noir" in rec.why and "2000-2001" in rec.why
    assert set(rows[0]) == {"movieId", "title", "year", "why"}  # the genres are the message's


def test_people_and_exclusions_are_never_loosened(tools_graph: Any) -> None:
    arguments = {"people": ["Christopher Nolan"], "exclude_genres": ["Sci-Fi"], "limit": 20}
    result = _recommender(tools_graph, 0).invoke(arguments)
    nolan = _people(tools_graph, ["Christopher Nolan"])
    recs = result.data.recommendations
    assert recs and len(recs) < 10 and not result.data.basis.loosened
    assert all(r.movie_id in nolan and "Sci-Fi" not in r.genres for r in recs)
    assert f"Only {len(recs)} fit; nothing was loosened" in result.message
    assert result.message.startswith(f"The {len(recs)} best-rated movies (not Sci-Fi, with ")
    assert all("directed by Christopher Nolan" in r.why for r in recs)


def _seed_weights(ratings: dict[int, float], when: dict[int, int]) -> dict[int, float]:
    """Likes weigh rating - 3, the recent more (`taste.RECENT_BOOST`, halving every
    `RECENT_HALF_LIFE` likes back in time); dislikes `DISLIKE_WEIGHT` x (rating - 3)."""
    liked = sorted((m for m, r in ratings.items() if r >= 4.0), key=lambda m: (-when[m], -m))
    weights = {m: (ratings[m] - 3) * (1 + taste.RECENT_BOOST * 0.5 ** (place /
               taste.RECENT_HALF_LIFE)) for place, m in enumerate(liked)}  # fmt: skip
    for movie, rating in ratings.items():
        if rating <= 2.0:
            weights[movie] = taste.DISLIKE_WEIGHT * (rating - 3)
    return weights


def test_from_own_ratings_sums_likes_and_dislikes_and_says_which_likes(
    tools_graph: Any, csv_ratings: Any
) -> None:
    user = 3  # few ratings, so every liked and disliked movie is a seed
    rated = csv_ratings.by_user[user]
    weights = _seed_weights(rated, csv_ratings.when[user])
    parts: dict[int, dict[int, float]] = {}  # candidate -> seed -> what the seed adds
    for seed, weight in weights.items():
        for edge in _edges(tools_graph, seed):
            if edge["movieId"] not in rated and edge["score"] > 0:
                parts.setdefault(edge["movieId"], {})[seed] = weight * edge["score"]
    totals = {movie: sum(p.values()) * max(csv_ratings.likes[movie], 1) ** -ranking.DAMPING
              for movie, p in parts.items()}  # fmt: skip
    best = sorted((m for m in totals if totals[m] > 0), key=lambda m: -totals[m])[:10]
    recs = _recommender(tools_graph, user).invoke({}).data.recommendations
    assert [r.movie_id for r in recs] == best
    for rec in recs[:3]:
        strongest = max(parts[rec.movie_id].items(), key=lambda item: item[1])[0]
        [movie] = tools_graph.read("test/movie_by_id", {"movieId": strongest})
        assert rec.why.startswith(f"because you liked {movie['title']}")


def test_a_dislike_pushes_away_the_movies_like_it(writable: Any) -> None:
    """Two users with the same likes; one found Finding Nemo so-so (3: no signal), the other
    disliked it (1). Both have rated it, so neither gets it; only the dislike pushes away."""
    lists = {}
    for rating in (3, 1):
        user = (
            bound_tools(writable, Session())["memory"]
            .invoke({"movie": "Finding Nemo", "rating": rating})
            .new_user_id
        )
        assert user is not None
        tools = bound_tools(writable, Session(user_id=user))
        for title in ("Toy Story", "Toy Story 2", "Monsters, Inc.", "Shrek"):
            tools["memory"].invoke({"movie": title, "rating": 5})
        data = tools["recommender"].invoke({"limit": 20}).data
        assert isinstance(data, Recommendations)
        lists[rating] = [r.movie_id for r in data.recommendations]
    nemo_like = {e["movieId"] for e in _edges(writable, FINDING_NEMO) if e["score"] > 0}
    so_so, disliked = lists[3], lists[1]

    def prominence(ranked: list[int]) -> int:  # movies like Finding Nemo, the higher the more
        return sum(len(ranked) - place for place, m in enumerate(ranked) if m in nemo_like)

    assert FINDING_NEMO not in so_so + disliked
    assert prominence(disliked) < prominence(so_so)


def test_a_guest_without_ratings_is_told_what_to_do(tools_graph: Any) -> None:
    result = _recommender(tools_graph, 0).invoke({})
    assert result.data.recommendations == [] and "rate" in result.message


@pytest.mark.parametrize(
    ("arguments", "error"),
    [
        ({"genres": ["Bollywood"]}, "Film-Noir"),
        ({"year_from": 2000, "year_to": 1990}, "after year_to"),
        ({"genres": ["Horror"], "exclude_genres": ["horror"]}, "both asked for and excluded"),
        ({"limit": 26}, "limit"),
        ({"movie_title": "Heat"}, "movie_title"),
    ],
)
def test_bad_arguments_get_a_sentence(tools_graph: Any, arguments: Any, error: str) -> None:
    with pytest.raises(ToolArgumentsError, match=error):
        _recommender(tools_graph, 0).invoke(arguments)


def test_one_movie_or_genre_is_taken_as_small_models_send_it(tools_graph: Any) -> None:
    recommender = _recommender(tools_graph, 0)
    lists = {
        json: [r.movie_id for r in recommender.invoke(args).data.recommendations]
        for json, args in (
            ("lists", {"movies": ["Heat"], "genres": ["Crime"]}),
            ("strings", {"movies": "Heat", "genres": "Crime"}),
            ("singular", {"movie": "Heat", "genre": "Crime"}),
        )
    }
    assert lists["lists"] == lists["strings"] == lists["singular"] and lists["lists"]


def test_recommending_only_reads(tools_graph: Any) -> None:
    result = _recommender(tools_graph, 1).invoke({"movies": ["Heat"], "people": ["Al Pacino"]})
    assert result.queries and {q.mode for q in result.queries} == {"read"}


def test_an_open_year_range_keeps_its_open_end(tools_graph: Any) -> None:
    """'After 2005' is one end of the range: every pick is from 2005 on, and the message says
    so in words a reader cannot take for the one year 2005."""
    result = _recommender(tools_graph, 0).invoke({"genres": ["Documentary"], "year_from": 2005})
    recs = result.data.recommendations
    assert recs and all(r.year >= 2005 for r in recs) and len({r.year for r in recs}) > 1
    assert "2005 or later" in result.message and result.data.basis.years == "2005 or later"
    earlier = _recommender(tools_graph, 0).invoke({"genres": ["Drama"], "year_to": 1960})
    assert all(r.year <= 1960 for r in earlier.data.recommendations)
    assert earlier.data.basis.years == "1960 or earlier"
