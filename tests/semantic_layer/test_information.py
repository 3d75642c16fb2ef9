"""Information against the enriched CSV and movies.csv, read independently."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import pytest

from agent.observation import fit_observation


def _enriched(path: Path, movie_id: int) -> dict[str, Any]:
    with path.open(encoding="utf-8", newline="") as f:
        for row in csv.DictReader(f):
            if int(row["movieId"]) == movie_id:
                split = lambda v: [x.strip() for x in v.split("|") if x.strip()]  # noqa: E731
                return {"actors": split(row["actors"]), "directors": split(row["director"])}
    raise AssertionError(f"movie {movie_id} not in {path}")


def _genres(release: Path, movie_id: int) -> list[str]:
    with (release / "movies.csv").open(encoding="utf-8", newline="") as f:
        for row in csv.DictReader(f):
            if int(row["movieId"]) == movie_id:
                return sorted(row["genres"].split("|"))
    raise AssertionError(movie_id)


@pytest.mark.parametrize(("title", "movie_id"), [("Heat", 6), ("Casino", 16), ("matrix", 2571)])
def test_movie_facts_match_the_csvs(
    tools: dict[str, Any], enriched_csv: Path, ml_small: Path, title: str, movie_id: int
) -> None:
    result = tools["film_facts"].invoke({"entity": title})
    assert result.ok and result.kind == "movie"
    expected = _enriched(enriched_csv, movie_id)
    assert result.data.movie_id == movie_id
    assert result.data.directors == sorted(expected["directors"])
    assert result.data.cast == expected["actors"][: len(result.data.cast)]
    assert result.data.cast[0] == expected["actors"][0]  # billing order kept
    assert result.data.genres == _genres(ml_small, movie_id)
    assert [q.mode for q in result.queries] == ["read"] * len(result.queries)


def test_movie_ratings_match_ratings_csv(tools: dict[str, Any], csv_ratings: Any) -> None:
    data = tools["film_facts"].invoke({"entity": "Heat"}).data
    assert data.rating_count == csv_ratings.count[6]
    assert data.rating_avg == pytest.approx(csv_ratings.average[6], abs=0.01)
    assert data.your_rating == csv_ratings.by_user[1].get(6)


def test_filmography_as_actor_and_director(
    tools: dict[str, Any], enriched_csv: Path, ml_small: Path
) -> None:
    known = set()
    with (ml_small / "movies.csv").open(encoding="utf-8", newline="") as f:
        known = {int(r["movieId"]) for r in csv.DictReader(f)}
    directed, acted = set(), set()
    with enriched_csv.open(encoding="utf-8", newline="") as f:
        for row in csv.DictReader(f):
            movie_id = int(row["movieId"])
            if movie_id not in known:
                continue
            if "Clint Eastwood" in [x.strip() for x in row["director"].split("|")]:
                directed.add(movie_id)
            if "Clint Eastwood" in [x.strip() for x in row["actors"].split("|")]:
                acted.add(movie_id)
    result = tools["film_facts"].invoke({"entity": "clint eastwood", "entity_type": "person"})
    assert result.ok and result.kind == "person"
    assert result.data.directed_count == len(directed)
    assert result.data.acted_in_count == len(acted)
    assert {f.movie_id for f in result.data.directed} == directed


def test_a_persons_films_come_best_known_first(tools: dict[str, Any], csv_ratings: Any) -> None:
    # "name a few" names the first ones: the most rated, not the oldest (Duel before Jaws)
    data = tools["film_facts"].invoke({"entity": "Steven Spielberg", "entity_type": "person"}).data
    counts = [csv_ratings.count.get(f.movie_id, 0) for f in data.directed]
    assert len(counts) == data.directed_count > 10
    assert counts == sorted(counts, reverse=True) and counts[0] > counts[-1]


def test_an_ambiguous_title_returns_candidates_not_facts(tools: dict[str, Any]) -> None:
    result = tools["film_facts"].invoke({"entity": "Solaris"})  # rated 11 and 20 times
    assert not result.ok and result.kind == "candidates" and result.data is None
    assert {c.year for c in result.candidates} == {1972, 2002}


def test_a_title_films_share_is_the_best_known_one_and_the_others_are_named(
    tools: dict[str, Any],
) -> None:
    result = tools["film_facts"].invoke({"entity": "Gladiator"})  # rated 170 and 9 times
    assert result.ok and result.kind == "movie"
    assert (result.data.title, result.data.year) == ("Gladiator", 2000)
    assert "Ridley Scott" in result.data.directors
    assert result.data.same_title == ["Gladiator (1992)"]  # for the UI and MCP clients
    assert "same_title" not in fit_observation(result)  # the model answers about the one film


def test_empty_entity_is_a_clear_error(tools: dict[str, Any]) -> None:
    result = tools["film_facts"].invoke({"entity": "  "})
    assert not result.ok and result.kind == "error" and "No movie title" in result.message


@pytest.mark.parametrize(
    ("about", "read"),
    [
        ("directors", {"movie", "directors"}),
        ("cast", {"movie", "cast"}),
        ("genres", {"movie", "genres"}),
        ("ratings", {"movie", "imdbRating", "ratingAvg", "ratingCount", "yourRating"}),
    ],
)
def test_the_model_reads_what_the_question_asked_of_a_movie(
    tools: dict[str, Any], about: str, read: set[str]
) -> None:
    # a question on one fact is answered from that fact: the rest of the card is prefill time
    # before the answer's first word. The UI and MCP clients still get the whole card.
    whole = tools["film_facts"].invoke({"entity": "Heat"})
    asked = tools["film_facts"].invoke({"entity": "Heat", "about": [about]})
    observation = json.loads(fit_observation(asked))["data"]
    everything = json.loads(fit_observation(whole))["data"]
    assert read - set(everything) <= {"yourRating"}  # the user may not have rated it
    assert set(observation) == read & set(everything)
    assert {key: everything[key] for key in observation} == observation
    assert asked.plain_data() == whole.plain_data()


def test_the_year_of_a_movie_is_its_label_and_everything_is_the_whole_card(
    tools: dict[str, Any],
) -> None:
    year = tools["film_facts"].invoke({"entity": "Heat", "about": ["year"]})
    assert json.loads(fit_observation(year)) == {"data": "Heat (1995)"}
    everything = tools["film_facts"].invoke({"entity": "Heat", "about": ["cast", "everything"]})
    assert fit_observation(everything) == fit_observation(
        tools["film_facts"].invoke({"entity": "Heat"})
    )


def test_a_person_asked_about_one_role_reads_the_films_of_that_role(
    tools: dict[str, Any],
) -> None:
    args = {"entity": "Clint Eastwood", "entity_type": "person"}
    whole = tools["film_facts"].invoke(args)
    directed = tools["film_facts"].invoke({**args, "about": ["directors"]})
    read = json.loads(fit_observation(directed))
    assert set(read["data"]) == {"name", "directed"}  # what he directed, not what he acted in
    assert read["omitted"] == {"directed": whole.data.directed_count - 5}
    assert directed.plain_data() == whole.plain_data()  # the UI and MCP clients get both lists
    acted = json.loads(fit_observation(tools["film_facts"].invoke({**args, "about": ["cast"]})))
    assert set(acted["data"]) == {"name", "actedIn"}
    # asked about no role of his (a year, genres), the filmography is the answer: all of it
    for topics in (["year"], ["genres", "ratings"], ["directors", "cast"]):
        asked = tools["film_facts"].invoke({**args, "about": topics})
        assert fit_observation(asked) == fit_observation(whole)


def test_a_question_of_several_parts_reads_the_fields_of_each(tools: dict[str, Any]) -> None:
    # "What genre is Heat, and is it any good?": the genres and the ratings, nothing else
    asked = tools["film_facts"].invoke({"entity": "Heat", "about": ["genres", "ratings"]})
    read = set(json.loads(fit_observation(asked))["data"])
    assert {"movie", "genres", "imdbRating", "ratingAvg", "ratingCount"} <= read
    assert read.isdisjoint({"cast", "directors", "tags", "alsoKnownAs"})


def test_a_name_nothing_is_called_is_said_apart_from_names_several_films_share(
    tools: dict[str, Any], movie_graph: Any
) -> None:
    """A result says which typed name nothing in the graph is called (not found, or only
    look-alikes offered), so a caller may try the film's English title; films that share the
    name typed are a choice, not a miss."""
    from semantic_layer.resolve.kind import held_by_name

    missing = tools["film_facts"].invoke({"entity": "Il Padrino", "entity_type": "movie"})
    assert not missing.ok and missing.kind == "error" and missing.unmatched == "Il Padrino"
    guessed = tools["film_facts"].invoke({"entity": "Lo squalo", "entity_type": "movie"})
    assert guessed.kind == "candidates" and guessed.unmatched == "Lo squalo"
    shared = tools["film_facts"].invoke({"entity": "Hamlet", "entity_type": "movie"})
    assert shared.kind == "candidates" and shared.unmatched is None
    assert held_by_name(movie_graph, "The Godfather") and held_by_name(movie_graph, "tom hanks")
    assert not held_by_name(movie_graph, "The Silent Night")  # only Silent Night, Deadly Night
    assert not held_by_name(movie_graph, "Il Padrino")


@pytest.mark.parametrize(
    ("title", "year", "film"),
    [
        ("Return to the Future", 1985, "Back to the Future (1985)"),  # a literal translation
        ("The Silence of the Innocents", 1993, "The Silence of the Lambs (1991)"),
        ("The Godfather", 1972, "The Godfather (1972)"),
        ("Hamlet", 1996, "Hamlet (1996)"),  # several of the name: the one of that year
        ("White Heat", 1957, None),  # held by name, but of 1949
        ("The White Shark", 1975, None),  # its look-alikes are of other years
        ("Le Voyage de Chihiro", 2001, None),  # nothing like it in the graph
        ("The Godfather", None, "The Godfather"),  # no year: held by name is enough
        ("Return to the Future", None, None),
        ("tom hanks", 1994, "tom hanks"),  # a person's name: a year says nothing of them
    ],
)
def test_a_film_recalled_by_title_and_year_is_one_whose_title_and_year_agree(
    movie_graph: Any, title: str, year: int | None, film: str | None
) -> None:
    from semantic_layer.resolve.kind import recalled_title

    assert recalled_title(movie_graph, title, year) == film
