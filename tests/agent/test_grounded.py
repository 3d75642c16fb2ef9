"""Grounded answers: every name and relation an answer states is one a returned row holds;
otherwise the loop answers from the rows. The answers are read by the linker on the real graph."""

from __future__ import annotations

from typing import Any

from agent.events import AnswerReplaced
from agent.grounded import (
    echoes_question,
    missing_films,
    other_language,
    unnamed_people,
    unnamed_recommendations,
    unsupported,
)
from agent.loop import Agent
from semantic_layer.tools.contract import ToolContext
from semantic_layer.tools.payloads import (
    Film,
    MovieCard,
    PersonCard,
    Rows,
    SmalltalkReply,
    StoredRating,
    YourRating,
)
from semantic_layer.tools.result import ToolResult
from tests.agent.fakes import InformationInput, ScriptedLLM, ScriptedTool, call, final


def heat_card() -> ToolResult:
    card = MovieCard(
        movie_id=6, title="Heat", year=1995, genres=["Action", "Crime", "Thriller"],
        directors=["Michael Mann"], cast=["Al Pacino", "Robert De Niro", "Val Kilmer"],
    )  # fmt: skip
    return ToolResult(tool="information", kind="movie", message="Heat (1995).", data=card)


def test_an_answer_from_the_card_is_grounded(movie_graph: Any) -> None:
    answer = "Heat (1995) was directed by Michael Mann and stars Al Pacino and Robert De Niro."
    assert unsupported(answer, [heat_card()], movie_graph) == []


def test_a_person_the_rows_do_not_link_to_the_movie_is_an_invented_relation(
    movie_graph: Any,
) -> None:
    problems = unsupported("Heat (1995) stars Tom Hanks.", [heat_card()], movie_graph)
    assert problems and "Tom Hanks" in problems[0]


def test_a_last_name_after_another_given_name_is_someone_the_rows_do_not_hold(
    movie_graph: Any,
) -> None:
    """ "Neil Mann" is not Michael Mann, though "Mann" alone would be."""
    for answer in ("Heat (1995) was directed by Neil Mann.", "Neil Mann directed Heat (1995)."):
        problems = unsupported(answer, [heat_card()], movie_graph)
        assert any("Neil Mann" in p for p in problems), answer
    for held in ("Heat (1995) was directed by Mann.", "Heat (1995) is a Michael Mann film."):
        assert unsupported(held, [heat_card()], movie_graph) == []


def test_help_text_is_not_a_fact(movie_graph: Any) -> None:
    smalltalk = ToolResult(tool="smalltalk", message="I'm a movie assistant.",
                           data=SmalltalkReply(examples=["Recommend something like Heat"]))  # fmt: skip
    problems = unsupported("Try Heat (1995), starring Tom Hanks!", [smalltalk], movie_graph)
    assert any("Heat" in p for p in problems) and any("Tom Hanks" in p for p in problems)


def test_the_person_a_declared_tool_was_asked_about_is_held(movie_graph: Any) -> None:
    rows = Rows(
        [{"title": "Pulp Fiction", "year": 1994}, {"title": "Reservoir Dogs", "year": 1992}]
    )
    result = ToolResult(tool="top_movies_by_director", kind="rows", data=rows,
                        message="2 rows for director: Quentin Tarantino.")  # fmt: skip
    answer = "Quentin Tarantino's best films are Pulp Fiction (1994) and Reservoir Dogs (1992)."
    assert unsupported(answer, [result], movie_graph) == []
    problems = unsupported("Pulp Fiction (1994) stars Tom Hanks.", [result], movie_graph)
    assert any("Tom Hanks" in p for p in problems)


def test_a_wrong_year_is_caught(movie_graph: Any) -> None:
    problems = unsupported("Heat (1986) was directed by Michael Mann.", [heat_card()], movie_graph)
    assert problems


def test_a_person_answer_names_their_films(movie_graph: Any) -> None:
    card = PersonCard(
        name="Michael Mann", acted_in=[], acted_in_count=0, directed_count=2,
        directed=[Film(movie_id=6, title="Heat", year=1995),
                  Film(movie_id=3100, title="The Last of the Mohicans", year=1992)],
    )  # fmt: skip
    result = ToolResult(tool="information", kind="person", data=card)
    assert unsupported("Michael Mann directed Heat (1995).", [result], movie_graph) == []
    assert unsupported("Michael Mann directed Casino (1995).", [result], movie_graph)


def test_the_rating_reported_is_the_one_stored(movie_graph: Any) -> None:
    stored = ToolResult(tool="memory", kind="rating",
                        data=StoredRating(movie_id=6, title="Heat", year=1995, rating=4, user_id=1))  # fmt: skip
    assert unsupported("Stored 4/5 for Heat (1995).", [stored], movie_graph) == []
    assert unsupported("Stored 4.0/5 for Heat (1995).", [stored], movie_graph) == []
    assert unsupported("I saved 3 stars for Heat (1995).", [stored], movie_graph)


def test_no_rating_is_said_of_a_movie_the_user_has_not_rated(movie_graph: Any) -> None:
    none = ToolResult(tool="memory", kind="rating",
                      data=YourRating(movie_id=6, title="Heat", year=1995, rating=None))  # fmt: skip
    assert unsupported("You have not rated Heat (1995).", [none], movie_graph) == []
    assert unsupported("You rated Heat (1995) 4/5.", [none], movie_graph)


def test_an_invented_answer_is_replaced_by_one_rendered_from_the_rows(movie_graph: Any) -> None:
    tool = ScriptedTool("information", "Facts.", InformationInput, [heat_card()])
    llm = ScriptedLLM(
        call("information", entity="Heat"), final("Heat (1995) is a comedy starring Tom Hanks.")
    )
    events = list(Agent(llm, [tool]).stream("Who stars in Heat?", context=ToolContext(movie_graph)))
    replaced = [e for e in events if isinstance(e, AnswerReplaced)]
    final_event = events[-1]
    assert replaced and "Tom Hanks" not in final_event.answer  # type: ignore[union-attr]
    assert final_event.result.rendered  # type: ignore[union-attr]


def test_an_answer_from_no_tool_that_names_movies_says_what_the_agent_can_do(
    movie_graph: Any,
) -> None:
    from agent.render import capabilities

    llm = ScriptedLLM(final("Tonight, watch Heat (1995) starring Tom Hanks."))
    result = Agent(llm, []).ask("Surprise me", context=ToolContext(movie_graph))
    assert result.answer == capabilities("en")
    assert "Tom Hanks" not in result.answer


def test_a_plain_answer_from_no_tool_is_kept(movie_graph: Any) -> None:
    llm = ScriptedLLM(final("Hello! Ask me about movies."))
    result = Agent(llm, []).ask("hello", context=ToolContext(movie_graph))
    assert result.answer == "Hello! Ask me about movies." and not result.rendered


def test_the_people_a_recommendation_was_held_to_are_facts_of_its_movies(
    movie_graph: Any,
) -> None:
    from semantic_layer.tools.payloads import Basis, Recommendation, Recommendations

    recs = Recommendations(
        basis=Basis(people=["Ridley Scott"]),
        recommendations=[Recommendation(movie_id=541, title="Blade Runner", year=1982, why="")],
    )
    result = ToolResult(tool="recommender", kind="recommendations", data=recs)
    assert (
        unsupported("Blade Runner (1982), directed by Ridley Scott.", [result], movie_graph) == []
    )


def test_the_movies_a_recommendations_reason_names_are_held(movie_graph: Any) -> None:
    from semantic_layer.tools.payloads import Basis, Recommendation, Recommendations

    why = "like Alien (1979) and Blade Runner (1982): viewers who liked them liked it too"
    recs = Recommendations(
        basis=Basis(movie="Alien", movie_id=1214),
        recommendations=[Recommendation(movie_id=2571, title="The Matrix", year=1999, why=why)],
    )
    result = ToolResult(tool="recommender", kind="recommendations", data=recs)
    answer = f"- The Matrix (1999): {why}"
    assert unsupported(answer, [result], movie_graph) == []
    assert unsupported("- The Matrix (1999): like Heat (1995).", [result], movie_graph)


def test_the_parts_of_a_reason_are_separate_statements(movie_graph: Any) -> None:
    """A reason joins its parts with semicolons: the movie it came from and the person asked
    for are not a claim that the person is in that movie."""
    from semantic_layer.tools.payloads import Basis, Recommendation, Recommendations

    why = "liked by 41 viewers who liked Big (1988); with Tom Hanks"
    recs = Recommendations(
        basis=Basis(movie="Big", movie_id=2797, people=["Tom Hanks"]),
        recommendations=[Recommendation(movie_id=356, title="Forrest Gump", year=1994, why=why)],
    )
    result = ToolResult(tool="recommender", kind="recommendations", data=recs)
    assert unsupported(f"- Forrest Gump (1994): {why}", [result], movie_graph) == []
    claim = "Tom Hanks plays in Forrest Gump (1994) and Big (1988)."
    assert unsupported(claim, [result], movie_graph) == ["Tom Hanks with Big (1988)"]
    listed = "If you liked Big (1988), you might like these\n- Forrest Gump (1994) with Tom Hanks"
    assert unsupported(listed, [result], movie_graph) == []


def test_an_initial_does_not_end_a_sentence(movie_graph: Any) -> None:
    """Read as two sentences, "... stars Michael J." names the film *Michael* (1996)."""
    card = MovieCard(
        movie_id=1270, title="Back to the Future", year=1985,
        cast=["Michael J. Fox", "Christopher Lloyd"],
    )  # fmt: skip
    result = ToolResult(tool="information", kind="movie", data=card)
    answer = "Back to the Future (1985) stars Michael J. Fox and Christopher Lloyd."
    assert unsupported(answer, [result], movie_graph, "en") == []
    assert unsupported(answer, [result], movie_graph) == []  # the language found by itself


def test_a_year_no_row_holds_is_an_invented_fact(movie_graph: Any) -> None:
    """A movie card for *George Washington* (2000) says nothing of 1732: a year is a fact."""
    card = MovieCard(movie_id=4117, title="George Washington", year=2000, genres=["Drama"])
    result = ToolResult(tool="information", kind="movie", data=card)
    invented = "George Washington was born in 1732 and died in 1799."
    assert unsupported(invented, [result], movie_graph) == ["year 1732", "year 1799"]
    assert unsupported("George Washington (2000) is a drama.", [result], movie_graph) == []


def test_a_year_or_rating_the_user_wrote_or_a_row_holds_may_be_repeated(movie_graph: Any) -> None:
    card = heat_card().data.model_copy(update={"rating_avg": 3.93, "released": "1995-12-15"})  # type: ignore[union-attr]
    result = ToolResult(tool="information", kind="movie", data=card)
    held = "Heat (1995), released 1995-12-15, is rated 3.9/5 (3.93 exactly)."
    assert unsupported(held, [result], movie_graph) == []
    assert unsupported("Heat (1995) is rated 4.6/5.", [result], movie_graph) == ["number 4.6"]
    said = "Anything from 1984 like Heat?"
    assert unsupported("Heat (1995) is not from 1984.", [result], movie_graph, question=said) == []


def _horror() -> ToolResult:
    from semantic_layer.tools.payloads import Basis, Recommendation, Recommendations

    rows = [
        Recommendation(movie_id=1258, title="The Shining", year=1980, rating_avg=4.08,
                       why="rated 4.1/5 on average by 109 viewers; Horror"),
        Recommendation(movie_id=1387, title="Jaws", year=1975, rating_avg=3.98,
                       why="rated 4.0/5 on average by 91 viewers; Horror"),
    ]  # fmt: skip
    recs = Recommendations(basis=Basis(genres=["Horror"]), recommendations=rows)
    return ToolResult(tool="recommender", kind="recommendations", data=recs)


def test_a_film_said_to_be_of_years_its_row_is_not_of_is_an_invented_fact(
    movie_graph: Any,
) -> None:
    """The rows hold *The Shining* (1980) and *Jaws* (1975): of the 70s is true of one of them."""
    wrong = "The best horror films of the 70s are The Shining (1980) and Jaws (1975)."
    assert unsupported(wrong, [_horror()], movie_graph) == ["The Shining (1980) is not of 70s"]
    both = "Horror films of the 70s and 80s: The Shining (1980) and Jaws (1975)."
    assert unsupported(both, [_horror()], movie_graph) == []
    # a single year may be an open end ("or earlier"): not read as the films' years
    open_end = "Horror from 1980 or earlier: The Shining (1980) and Jaws (1975)."
    assert unsupported(open_end, [_horror()], movie_graph) == []
    # a declared tool's rows, held as text, are read the same way
    rows = Rows([{"movie": "Aliens (1986)", "uses": 1}, {"movie": "Misery (1990)", "uses": 1}])
    tagged = ToolResult(tool="most_tagged", kind="rows", data=rows, message="2 rows.")
    eighties = "The best horror movies of the 80s are Aliens (1986) and Misery (1990)."
    assert unsupported(eighties, [tagged], movie_graph) == ["Misery (1990) is not of 80s"]
    # a film the user named is what the others are like, not one of them
    like = "Films like The Shining (1980) from the 70s: Jaws (1975)."
    said = "Something like The Shining from the 70s?"
    assert unsupported(like, [_horror()], movie_graph, question=said) == []
    assert unsupported(like, [_horror()], movie_graph) == ["The Shining (1980) is not of 70s"]


def test_an_answer_to_recommendations_names_one_of_them(movie_graph: Any) -> None:
    result = _horror()
    vague = "Viewers who rated the best horror movies gave them 4 stars."
    assert unnamed_recommendations(vague, [result], movie_graph) is not None
    named = "Viewers rate The Shining (1980) and Jaws (1975) best."
    assert unnamed_recommendations(named, [result], movie_graph) is None
    assert unnamed_recommendations(vague, [heat_card()], movie_graph) is None  # not a list


def test_an_answer_naming_no_recommendation_is_rendered_from_them(movie_graph: Any) -> None:
    tool = ScriptedTool("recommender", "Recommendations.", InformationInput, [_horror()])
    llm = ScriptedLLM(call("recommender", entity="horror"), final("Des films d'horreur ?"))
    result = Agent(llm, [tool]).ask("Des films d'horreur ?", context=ToolContext(movie_graph))
    assert "The Shining (1980)" in result.answer and result.rendered


def test_an_answer_on_a_films_directors_names_one_of_them(movie_graph: Any) -> None:
    """Written in another script, a name is not one a row holds; nor is the question repeated."""
    directors = ToolResult(tool="information", kind="movie", message="Heat (1995).",
                           data=heat_card().data.asked_about(["directors"]))  # fmt: skip
    assert unnamed_people("Heat (1995)的导演是迈克尔·曼。", [directors], movie_graph) is not None
    assert unnamed_people("Heat (1995)の監督は誰ですか?", [directors], movie_graph) is not None
    assert unnamed_people("Heat (1995)的导演是Michael Mann。", [directors], movie_graph) is None
    cast = ToolResult(tool="information", kind="movie", message="Heat (1995).",
                      data=heat_card().data.asked_about(["cast"]))  # fmt: skip
    assert unnamed_people("Heat stars Robert De Niro.", [cast], movie_graph) is None
    assert unnamed_people("Heat stars Michael Mann.", [cast], movie_graph) is not None
    year = ToolResult(tool="information", kind="movie", message="Heat (1995).",
                      data=heat_card().data.asked_about(["year"]))  # fmt: skip
    assert unnamed_people("Heat came out in 1995.", [year], movie_graph) is None  # not asked


def test_an_answer_naming_none_of_the_directors_asked_is_rendered(movie_graph: Any) -> None:
    card = heat_card()
    card.data = card.data.asked_about(["directors"])
    tool = ScriptedTool("information", "Facts.", InformationInput, [card])
    llm = ScriptedLLM(call("information", entity="Heat"), final("Heat (1995)的导演是迈克尔·曼。"))
    result = Agent(llm, [tool]).ask("Heat的导演是谁?", context=ToolContext(movie_graph))
    assert "Michael Mann" in result.answer and result.rendered


def test_a_genre_written_like_a_name_is_the_genre_not_a_film(movie_graph: Any) -> None:
    """*L'Avventura* (1960) is also known as "The Adventure": an answer that writes the genre
    with a capital inside a sentence names no film; a film comes with its year."""
    from semantic_layer.tools.payloads import Basis, Recommendation, Recommendations

    row = Recommendation(movie_id=260, title="Star Wars: Episode IV - A New Hope", year=1977,
                         why="rated 4.2/5 on average by 251 viewers; Adventure")  # fmt: skip
    recs = Recommendations(basis=Basis(genres=["Adventure"]), recommendations=[row])
    result = ToolResult(tool="recommender", kind="recommendations", data=recs)
    answer = "The best Adventure movie is Star Wars: Episode IV - A New Hope (1977)."
    assert unsupported(answer, [result], movie_graph) == []
    assert unsupported("Watch L'Avventura (1960).", [result], movie_graph)


def test_a_person_answer_names_five_of_their_films_when_the_card_has_five(movie_graph: Any) -> None:
    titles = [("Heat", 1995), ("Collateral", 2004), ("The Insider", 1999), ("Ali", 2001),
              ("Miami Vice", 2006), ("The Last of the Mohicans", 1992)]  # fmt: skip
    films = [
        Film(movie_id=i, title=t, year=y) for i, (t, y) in enumerate(titles, start=900_001)
    ]  # matched by title
    card = PersonCard(name="Michael Mann", acted_in=[], acted_in_count=0, directed=films,
                      directed_count=len(films))  # fmt: skip
    result = ToolResult(tool="information", kind="person", data=card)
    two = "Michael Mann directed Heat (1995) and Collateral (2004)."
    assert missing_films(two, [result], movie_graph) == "2 of Michael Mann's films named, not 5"
    five = ("Michael Mann directed Heat (1995), Collateral (2004), The Insider (1999), "
            "Ali (2001) and Miami Vice (2006).")  # fmt: skip
    assert missing_films(five, [result], movie_graph) is None
    later = ToolResult(tool="memory", kind="rating",
                       data=YourRating(movie_id=6, title="Heat", year=1995, rating=None))  # fmt: skip
    assert missing_films(five, [result, later], movie_graph) is None  # the card's films count


def test_an_answer_in_another_language_than_the_question_is_other(movie_graph: Any) -> None:
    english = "Heat (1995) was directed by Michael Mann and stars Al Pacino and Robert De Niro."
    assert other_language(english, "en", movie_graph) is None
    assert other_language(english, "es", movie_graph) == "the answer is in en, the question in es"
    spanish = (
        "Heat (1995) fue dirigida por Michael Mann y la protagonizan Al Pacino y Robert De Niro."
    )
    assert other_language(spanish, "es", movie_graph) is None
    assert other_language("Heat (1995).", "ja", movie_graph) == (
        "the answer is in en, the question in ja"
    )


def test_an_answer_in_another_language_is_rendered_in_the_questions(movie_graph: Any) -> None:
    tool = ScriptedTool("information", "Facts.", InformationInput, [heat_card()])
    llm = ScriptedLLM(
        call("information", entity="Heat"), final("Heat (1995) was directed by Michael Mann.")
    )
    result = Agent(llm, [tool]).ask("¿Quién dirigió Heat?", context=ToolContext(movie_graph))
    assert result.rendered and "Michael Mann" in result.answer
    assert result.answer != "Heat (1995) was directed by Michael Mann."
    assert other_language(result.answer, "es", movie_graph) is None  # the rows, in Spanish


def test_an_answer_that_only_repeats_the_question_is_rendered(movie_graph: Any) -> None:
    """Words that are all a stretch of the question say nothing: the question itself, or the
    title the user typed, is not an answer to what a tool looked up (small talk's "Thanks!"
    to a thank-you is)."""
    missing = ToolResult(
        tool="information", ok=False, kind="error", unmatched="Les Dents de la mer",
        message="No movie called 'Les Dents de la mer' is in the graph.",
    )  # fmt: skip
    question = "Qui joue dans Les Dents de la mer ?"
    for draft in ("Les Dents de la Mer", "Qui joue dans Les Dents de la mer ?"):
        assert echoes_question(draft, question, [missing]) is not None, draft
    for draft in ("Les Dents de la mer n'est pas dans le graphe.", ""):
        assert echoes_question(draft, question, [missing]) is None, draft
    assert echoes_question("Heat", "Heather?", [heat_card()]) is None  # a whole word of it
    thanks = ToolResult(tool="smalltalk", kind="text", data=SmalltalkReply(examples=[]))
    assert echoes_question("Thanks!", "thanks, that was helpful!", [thanks]) is None

    tool = ScriptedTool("information", "Facts.", InformationInput, [missing])
    llm = ScriptedLLM(
        call("information", entity="Les Dents de la mer"),
        '{"title": "Les Dents de la mer"}',  # asked for its English title: none
        final("Les Dents de la Mer"),
    )
    result = Agent(llm, [tool]).ask(question, context=ToolContext(movie_graph))
    assert "the answer only repeats the question" in result.rendered
    assert "Les Dents de la mer" in result.answer and "orthographe" in result.answer
