"""The cards read the built-in tools' typed payloads: real results from the test graph."""

from __future__ import annotations

from typing import Any

from streamlit.testing.v1 import AppTest

from semantic_layer.session import Session
from semantic_layer.tools.payloads import MovieCard, PersonCard, Recommendations
from tests.agent.fakes import ScriptedLLM, call, final, information, recommender
from tests.semantic_layer.bound import bound_tools
from tests.ui import harness


def test_movie_person_and_recommendation_cards_from_real_results(
    app: AppTest, movie_graph: Any, writable_graph: Any
) -> None:
    real = bound_tools(movie_graph, Session(user_id=1))
    heat = real["film_facts"].invoke({"entity": "Heat"})
    mann = real["film_facts"].invoke({"entity": "Michael Mann", "entity_type": "person"})
    like_heat = real["recommender"].invoke({"movie": "Heat"})
    movie, person, recs = heat.data, mann.data, like_heat.data
    assert isinstance(movie, MovieCard) and isinstance(person, PersonCard)
    assert isinstance(recs, Recommendations) and recs.recommendations
    info, recommend = information(), recommender()
    info.results += [heat, mann]
    recommend.results.append(like_heat)
    llm = ScriptedLLM(
        call("information", entity="Heat"),
        call("recommender", movie="Heat"),
        final("Michael Mann directed it; try these."),
        call("information", entity="Michael Mann", entity_type="person"),
        final("He directed ten films."),
    )
    harness.current = harness.scripted(writable_graph, llm, [recommend, info])
    app.run()
    app.chat_input[0].set_value("Who directed Heat, and what is like it?").run()
    assert not app.exception
    page = harness.page_text(app)
    assert "### Heat (1995)" in page
    assert f"**Directed by:** {', '.join(movie.directors)}" in page
    assert f"**Cast:** {movie.cast[0]}" in page
    rating = f"★ {movie.rating_avg:.2f} ({movie.rating_count} ratings) · IMDb {movie.imdb_rating}"
    assert rating in page
    assert f"you rated it ★ {movie.your_rating}" in page  # MovieLens user 1 rated Heat
    first = recs.recommendations[0]
    assert f"**{first.label}**" in page and f"Why: {first.why}" in page

    app.chat_input[0].set_value("What else did Michael Mann direct?").run()
    assert not app.exception
    page = harness.page_text(app)
    assert "### Michael Mann" in page
    assert f"**Directed:** {person.directed[0].label}, {person.directed[1].label}" in page


def test_the_best_known_film_of_a_shared_title_names_the_others(
    app: AppTest, movie_graph: Any, writable_graph: Any
) -> None:
    gladiator = bound_tools(movie_graph, Session(user_id=1))["film_facts"].invoke(
        {"entity": "Gladiator"}
    )
    assert isinstance(gladiator.data, MovieCard) and gladiator.data.year == 2000
    info = information()
    info.results.append(gladiator)
    llm = ScriptedLLM(call("information", entity="Gladiator"), final("Ridley Scott directed it."))
    harness.current = harness.scripted(writable_graph, llm, [info])
    app.run()
    app.chat_input[0].set_value("Who directed Gladiator?").run()
    assert not app.exception
    page = harness.page_text(app)
    assert "### Gladiator (2000)" in page
    assert "**Other films of this title:** Gladiator (1992)" in page
