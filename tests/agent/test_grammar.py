"""The step schema: TGI's top-level `properties`, one `anyOf` branch per tool, no `$ref`."""

from __future__ import annotations

import json
from typing import Any

import pytest
from pydantic import BaseModel, Field

from agent.grammar import FINAL_ANSWER, NoValueError, step_schema, tool_input_schema
from semantic_layer.linking.arguments import YEAR_FROM, YEAR_TO, entity
from semantic_layer.linking.mentions import (
    GenreMention,
    Linked,
    MovieMatch,
    MovieMention,
    PersonMatch,
    PersonMention,
    TagMention,
    YearsMention,
)
from semantic_layer.tools import build_tools
from tests.agent.fakes import Genre, ScriptedTool


def test_schema_shape(tools: list[ScriptedTool]) -> None:
    schema = step_schema(tools)
    assert list(schema["properties"]) == ["action", "action_input"]  # no thought before it
    assert schema["properties"]["action"]["enum"] == ["recommender", "information", FINAL_ANSWER]
    consts = [b["properties"]["action"]["const"] for b in schema["anyOf"]]
    assert consts == ["recommender", "information", FINAL_ANSWER]
    assert all(b["additionalProperties"] is False for b in schema["anyOf"])
    assert "$ref" not in json.dumps(schema) and "$defs" not in json.dumps(schema)


def test_what_a_question_asks_about_a_film_is_always_written_and_other_callers_may_omit_it() -> (
    None
):
    facts = next(t for t in build_tools() if t.name == "film_facts")
    schema = tool_input_schema(facts)
    assert schema["required"] == ["entity", "about"]  # what is asked, right after the name
    assert list(schema["properties"]) == ["entity", "about", "entity_type"]
    assert "x-stated" not in json.dumps(schema)
    assert facts.parse({"entity": "Heat"}).about == ["everything"]  # MCP clients, declared use


def test_enums_are_inlined_and_inputs_closed(tools: list[ScriptedTool]) -> None:
    recommender = tool_input_schema(tools[0])
    assert recommender["additionalProperties"] is False
    genre = recommender["properties"]["genre"]["anyOf"][0]
    assert genre["enum"] == ["Comedy", "Drama", "Crime"]
    assert "title" not in json.dumps(recommender)
    information = tool_input_schema(tools[1])
    assert information["required"] == ["entity"]


def test_final_only_admits_just_an_answer(tools: list[ScriptedTool]) -> None:
    schema = step_schema(tools, final_only=True)
    assert schema["properties"]["action"] == {"const": FINAL_ANSWER}
    assert schema["properties"]["action_input"] == {"type": "string"}


def test_llama_cpp_accepts_the_schema(tools: list[ScriptedTool]) -> None:
    from llama_cpp import LlamaGrammar

    for schema in (step_schema(tools), step_schema(tools, final_only=True)):
        grammar = LlamaGrammar.from_json_schema(json.dumps(schema), verbose=False)
        assert "Final Answer" in grammar._grammar


def test_naming_arguments_offer_the_linked_names_first() -> None:
    from pydantic import BaseModel, Field

    from semantic_layer.linking.arguments import entity
    from semantic_layer.linking.mentions import Linked, MovieMatch, MovieMention
    from tests.agent.fakes import ScriptedTool

    class Input(BaseModel):
        movie: str | None = Field(None, json_schema_extra=entity("movie"))
        seeds: list[str] = Field(default_factory=list, json_schema_extra=entity("movie"))
        note: str | None = None

    heat = MovieMatch(movie_id=6, title="Heat", year=1995, name="Heat", score=1.0)
    linked = Linked(movies=[MovieMention(text="Heat", start=0, end=4, candidates=[heat])])
    tool = ScriptedTool("similar", "Movies like one.", Input)
    props = tool_input_schema(tool, linked)["properties"]
    offered = {"type": "string", "enum": ["Heat"]}
    assert offered in props["movie"]["anyOf"][0]["anyOf"]
    assert props["seeds"]["items"]["anyOf"][0] == offered
    assert "anyOf" not in props["note"] or offered not in props["note"]["anyOf"]
    assert "x-entity" not in json.dumps(tool_input_schema(tool, linked))
    assert tool_input_schema(tool)["properties"]["movie"] == {
        "anyOf": [{"type": "string"}, {"type": "null"}],
        "default": None,
    }


def test_a_genre_argument_admits_only_the_genres_the_question_names() -> None:
    from pydantic import BaseModel, Field

    from semantic_layer.linking.arguments import entity
    from semantic_layer.linking.mentions import (
        GenreMention,
        Linked,
        MovieMatch,
        MovieMention,
        YearsMention,
    )
    from tests.agent.fakes import ScriptedTool

    class Input(BaseModel):
        movie: str | None = Field(None, json_schema_extra=entity("movie"))
        genre: Genre | None = Field(None, json_schema_extra=entity("genre"))
        year_from: int | None = Field(None, json_schema_extra=entity("year-from"))

    tool = ScriptedTool("recommend", "Movies to watch.", Input)
    heat = MovieMatch(movie_id=6, title="Heat", year=1995, name="Heat", score=1.0)
    like_heat = MovieMention(text="Heat", start=0, end=4, candidates=[heat])
    comedy = GenreMention(text="funnier", start=10, end=17, genre="Comedy")

    open_choice = tool_input_schema(tool, Linked())["properties"]
    assert "genre" in open_choice and "Comedy" in json.dumps(open_choice["genre"])
    # "something like Heat": a movie and no genre word or year, so neither can be added
    like = tool_input_schema(tool, Linked(movies=[like_heat]))["properties"]
    assert "genre" not in like and "year_from" not in like and "movie" in like
    nineties = YearsMention(text="90s", start=20, end=23, first=1990, last=1999)
    assert "year_from" in tool_input_schema(tool, Linked(years=[nineties]))["properties"]
    # "like Heat but funnier": the genre named, and only it
    both = tool_input_schema(tool, Linked(movies=[like_heat], genres=[comedy]))["properties"]
    enums = [o["enum"] for o in both["genre"]["anyOf"] if "enum" in o]
    assert enums == [["Comedy"]]


def test_a_year_range_the_question_states_is_written_whole() -> None:
    from pydantic import BaseModel, Field

    from semantic_layer.linking.arguments import YEAR_FROM, YEAR_TO, entity
    from semantic_layer.linking.mentions import Linked, YearsMention
    from tests.agent.fakes import ScriptedTool

    class Input(BaseModel):
        genre: str | None = None
        year_from: int | None = Field(None, json_schema_extra=entity(YEAR_FROM))
        year_to: int | None = Field(None, json_schema_extra=entity(YEAR_TO))

    tool = ScriptedTool("recommend", "Movies to watch.", Input)
    eighties = YearsMention(text="80s", start=0, end=3, first=1980, last=1989)
    schema = tool_input_schema(tool, Linked(years=[eighties]))
    assert schema["required"] == ["year_from", "year_to"]
    assert schema["properties"]["year_from"] == {"type": "integer", "const": 1980}
    assert schema["properties"]["year_to"] == {"type": "integer", "const": 1989}
    # one year may be either end ("from 1994", "before 1994"): offered, the model chooses
    one = YearsMention(text="1994", start=0, end=4, first=1994, last=1994)
    single = tool_input_schema(tool, Linked(years=[one]))
    assert "required" not in single
    assert single["properties"]["year_to"] == {"type": "integer", "enum": [1994]}
    assert "x-stated" not in json.dumps(schema) + json.dumps(single)
    from llama_cpp import LlamaGrammar

    step = step_schema([tool], linked=Linked(years=[eighties]))
    grammar = LlamaGrammar.from_json_schema(json.dumps(step), verbose=False)._grammar
    assert '"1980"' in grammar and '"1989"' in grammar
    # without years written there is no range, whatever else was found or not
    assert "year_from" not in tool_input_schema(tool, Linked())["properties"]
    assert "year_to" not in tool_input_schema(tool, Linked())["properties"]

    class WithRequired(Input):
        kind: str

    required = ScriptedTool("recommend", "Movies to watch.", WithRequired)
    schema = tool_input_schema(required, Linked(years=[eighties]))
    assert schema["required"] == ["kind", "year_from", "year_to"]


def test_names_of_several_kinds_are_all_written_before_the_object_closes() -> None:
    """A small model wrote one kind and closed the object; llama.cpp writes required keys
    first, so with only the range required "a 90s thriller" lost "Thriller"."""

    class Input(BaseModel):
        movies: list[str] = Field(default_factory=list, json_schema_extra=entity("movie"))
        genres: list[Genre] = Field(default_factory=list, json_schema_extra=entity("genre"))
        exclude: list[Genre] = Field(default_factory=list, json_schema_extra=entity("genre"))
        year_from: int | None = Field(None, json_schema_extra=entity(YEAR_FROM))
        year_to: int | None = Field(None, json_schema_extra=entity(YEAR_TO))

    tool = ScriptedTool("recommend", "Movies to watch.", Input)
    thriller = GenreMention(text="thriller", start=8, end=16, genre="Thriller")
    nineties = YearsMention(text="90s", start=2, end=5, first=1990, last=1999)
    schema = tool_input_schema(tool, Linked(genres=[thriller], years=[nineties]))
    assert schema["required"] == ["genres", "exclude", "year_from", "year_to"]
    assert "minItems" not in json.dumps(schema["properties"]["exclude"])  # may stay empty
    # nothing of a kind found: that list stays optional ("movies" here), or is left out
    assert "movies" in schema["properties"] and "movies" not in schema["required"]
    assert "required" not in tool_input_schema(tool, Linked())
    # genres alone named: nothing is required, the model puts the one genre where it belongs
    assert "required" not in tool_input_schema(tool, Linked(genres=[thriller]))
    # a movie alone named: its one list is written, possibly empty (not `{}`, a request by the
    # user's own ratings)
    heat_only = Linked(
        movies=[
            MovieMention(
                text="Heat",
                start=0,
                end=4,
                candidates=[MovieMatch(movie_id=6, title="Heat", year=1995, name="Heat", score=1)],
            )
        ]
    )
    assert tool_input_schema(tool, heat_only)["required"] == ["movies"]
    assert "minItems" not in json.dumps(tool_input_schema(tool, heat_only)["properties"]["movies"])
    # a movie and a genre: both lists of genres are written, so an excluded one finds its place
    heat = MovieMatch(movie_id=6, title="Heat", year=1995, name="Heat", score=1.0)
    like_heat = MovieMention(text="Heat", start=0, end=4, candidates=[heat])
    both = tool_input_schema(tool, Linked(movies=[like_heat], genres=[thriller]))
    assert both["required"] == ["movies", "genres", "exclude"]
    # one span found as a movie and as a person is one thing named: nothing is required
    amelie = MovieMatch(movie_id=4973, title="Amélie", year=2001, name="Amélie", score=1.0)
    as_movie = MovieMention(text="Amélie", start=10, end=16, candidates=[amelie])
    as_person = PersonMention(
        text="Amélie", start=10, end=16, candidates=[PersonMatch(name="Amélie", score=1.0)]
    )
    one = tool_input_schema(tool, Linked(movies=[as_movie], people=[as_person]))
    assert "required" not in one
    # so is a title that is a year alone ("horror movies newer than 2012"): the film and the
    # year are both offered, neither is required, the model decides
    film = MovieMatch(movie_id=72378, title="2012", year=2009, name="2012", score=1.0)
    as_title = MovieMention(text="2012", start=24, end=28, candidates=[film])
    as_year = YearsMention(text="2012", start=24, end=28, first=2012, last=2012)
    horror = GenreMention(text="horror", start=0, end=6, genre="Horror")
    year_or_film = tool_input_schema(
        tool, Linked(movies=[as_title], genres=[horror], years=[as_year])
    )
    assert "required" not in year_or_film
    assert year_or_film["properties"]["year_from"] == {"type": "integer", "enum": [2012]}
    assert "2012" in json.dumps(year_or_film["properties"]["movies"])
    from llama_cpp import LlamaGrammar

    step = step_schema([tool], linked=Linked(genres=[thriller], years=[nineties]))
    grammar = LlamaGrammar.from_json_schema(json.dumps(step), verbose=False)._grammar
    rule = next(r for r in grammar.splitlines() if r.startswith("alternative-0-action-input ::="))
    kvs = ["genres-kv", "exclude-kv", "year-from-kv", "year-to-kv", "movies-kv"]
    at = [rule.index(f"action-input-{kv}") for kv in kvs]
    assert at == sorted(at) and rule.endswith(')? "}" space')  # movies stays optional


def test_a_rating_is_one_the_user_wrote_when_they_wrote_numbers(movie_graph: object) -> None:
    from llama_cpp import LlamaGrammar

    from semantic_layer.linking.linker import link
    from semantic_layer.tools import build_tools

    memory = next(t for t in build_tools() if t.name == "memory")

    def rating(question: str) -> object:
        return tool_input_schema(memory, link(movie_graph, question))["properties"].get("rating")

    # a number that is no rating admits none: nothing can be stored for a question about one
    with pytest.raises(NoValueError):
        rating("I'm user 42. What did I rate Heat?")
    asked = step_schema([memory], linked=link(movie_graph, "I'm user 42. What did I rate Heat?"))
    assert asked["properties"]["action"] == {"const": FINAL_ANSWER}  # memory is not offered
    assert rating("Give Heat 4.5/5, please.") == {"type": "number", "enum": [4.5]}
    assert rating("My rating for Gladiator (2000) is 5.") == {"type": "number", "enum": [5.0]}
    assert rating("Toy Story 2: 4 stars.") == {"type": "number", "enum": [4.0]}
    assert rating("Donne 3,5 à Heat.") == {"type": "number", "enum": [3.5]}  # a decimal comma
    # thousands are not a rating of 1: "1,000" is 1000, out of bounds
    assert rating("Seen Heat 1,000 times: 5 stars.") == {"type": "number", "enum": [5.0]}
    loved = rating("I loved Heat, remember that.")  # no number written: the model's own
    assert isinstance(loved, dict) and loved["maximum"] == 5 and "enum" not in loved
    # a question without a number states no rating: nothing can be stored, in any language;
    # nor does a text that names no movie (the ratings in the history are not this turn's)
    for asked_for in (
        "¿Cuántas estrellas le di a Heat?", "Did I like Heat?", "Heat 評価した\uff1f",
        "Recommend something for me personally.",
    ):  # fmt: skip
        with pytest.raises(NoValueError):
            rating(asked_for)
    earlier = link(movie_graph, "Alien 4 stars, Blade Runner 5 stars.")
    follow_up = link(movie_graph, "Now something for me.").merged(earlier)
    assert follow_up.movies and not follow_up.numbers  # named earlier, rated earlier
    with pytest.raises(NoValueError):
        tool_input_schema(memory, follow_up)
    step = step_schema([memory], linked=link(movie_graph, "Give Heat 4.5/5, please."))
    grammar = LlamaGrammar.from_json_schema(json.dumps(step), verbose=False)._grammar
    assert '"4.5"' in grammar


def test_a_tool_that_needs_a_person_is_not_offered_when_the_question_names_none() -> None:
    """A question naming a genre and a year ("Best sci-fi of 1982?"): a tool that cannot run
    without a person (the best films of a director) would need one the model picks itself."""

    class ByDirector(BaseModel):
        director: str = Field(json_schema_extra=entity("person"))

    class Facts(BaseModel):
        entity: str = Field(json_schema_extra=entity("movie person"))

    by_director = ScriptedTool("top_by_director", "A director's best films.", ByDirector)
    facts = ScriptedTool("facts", "Facts about a movie or a person.", Facts)
    scifi = GenreMention(text="sci-fi", start=5, end=11, genre="Sci-Fi")
    year = YearsMention(text="1982", start=15, end=19, first=1982, last=1982)
    named = Linked(genres=[scifi], years=[year])
    with pytest.raises(NoValueError):
        tool_input_schema(by_director, named)
    actions = step_schema([by_director, facts], linked=named)["properties"]["action"]["enum"]
    assert actions == ["facts", FINAL_ANSWER]  # a title may be translated: facts stays
    # a person named, or nothing found at all (a name in another script): the tool is offered
    kubrick = PersonMention(
        text="Kubrick",
        start=0,
        end=7,
        candidates=[PersonMatch(name="Stanley Kubrick", score=0.8, directed=13)],
    )
    assert tool_input_schema(by_director, Linked(people=[kubrick], years=[year]))
    assert tool_input_schema(by_director, Linked())


def test_a_tag_is_one_the_question_names_and_a_tool_that_needs_one_is_offered_only_then() -> None:
    """A tag (`x-entity` tag) is one of the graph's tags the question names: "Hidden gems
    similar to Memento?" names none, so the tag tool is not offered at all (it went out with the
    tag "hidden gems", which no viewer wrote); "movies tagged twist ending" offers that tag."""

    class Tagged(BaseModel):
        tag: str = Field(json_schema_extra=entity("tag"))

    class Liked(BaseModel):
        movies: list[str] = Field(default_factory=list, json_schema_extra=entity("movie"))

    tagged = ScriptedTool("most_tagged", "Movies viewers tagged with a word.", Tagged)
    liked = ScriptedTool("recommender", "Movies like the ones named.", Liked)
    twist = TagMention(text="twist ending", start=14, end=26, tag="twist ending")
    schema = tool_input_schema(tagged, Linked(tags=[twist]))
    assert schema["properties"]["tag"] == {"type": "string", "enum": ["twist ending"]}
    with pytest.raises(NoValueError):
        tool_input_schema(tagged, Linked())
    actions = step_schema([tagged, liked], linked=Linked())["properties"]["action"]["enum"]
    assert actions == ["recommender", FINAL_ANSWER]


def test_a_person_list_is_left_out_when_the_question_names_things_but_no_one() -> None:
    """ "Taxi Driver fans would enjoy what else?" went out with Jack Nicholson, a request like
    Amores perros with the Bill Murray of the argument's description: a question that names a
    film and no one has no person list; one that names someone, or nothing at all (a name in
    another script), or follows a turn that named someone, has it."""

    class Input(BaseModel):
        movies: list[str] = Field([], json_schema_extra=entity("movie"))
        people: list[str] = Field([], json_schema_extra=entity("person"))

    tool = ScriptedTool("recommend", "Movies to watch.", Input)
    heat = MovieMatch(movie_id=6, title="Heat", year=1995, name="Heat", score=1.0)
    like_heat = Linked(movies=[MovieMention(text="Heat", start=5, end=9, candidates=[heat])])
    pacino = PersonMention(
        text="Al Pacino", start=15, end=24, candidates=[PersonMatch(name="Al Pacino", score=1.0)]
    )
    with_pacino = Linked(movies=like_heat.movies, people=[pacino])

    def props(linked: Linked, earlier: Linked | None = None) -> dict[str, Any]:
        return tool_input_schema(tool, linked, earlier)["properties"]  # type: ignore[no-any-return]

    assert "people" not in props(like_heat) and "movies" in props(like_heat)
    assert "Al Pacino" in json.dumps(props(with_pacino)["people"])
    assert "people" in props(Linked())
    assert "people" in props(like_heat, earlier=Linked(people=[pacino]))


def test_a_last_name_that_may_be_a_person_keeps_the_person_list() -> None:
    """ "Spielberg films after 2000?": the first word's capital tells nothing, so the last name
    is a weak mention; it may be the person, so the list stays for the model to fill. A word
    that is only the last name of people with a film or two ("Best" in "Best horror movies of
    the 80s?": Edna Best, James Best) names no one: the list goes, as does a tool that needs a
    person (the question went out as the best films of a director the model picked itself)."""

    class Input(BaseModel):
        people: list[str] = Field([], json_schema_extra=entity("person"))
        year_from: int | None = Field(None, json_schema_extra=entity("year-from"))

    tool = ScriptedTool("recommend", "Movies to watch.", Input)
    spielberg = PersonMention(
        text="Spielberg", start=0, end=9, strength="weak",
        candidates=[PersonMatch(name="Steven Spielberg", score=0.8, directed=26)],
    )  # fmt: skip
    after = YearsMention(text="2000", start=22, end=26, first=2000, last=2000)
    properties = tool_input_schema(tool, Linked(people=[spielberg], years=[after]))["properties"]
    assert "people" in properties
    no_one = tool_input_schema(tool, Linked(years=[after]))["properties"]
    assert "people" not in no_one
    best = PersonMention(
        text="Best", start=0, end=4, strength="weak",
        candidates=[PersonMatch(name="Edna Best", score=0.8, acted=2)],
    )  # fmt: skip
    horror = GenreMention(text="horror", start=5, end=11, genre="Horror")
    barely = Linked(people=[best], genres=[horror], years=[after])
    assert "people" not in tool_input_schema(tool, barely)["properties"]


def test_a_follow_up_genre_argument_admits_the_genres_asked_about_earlier() -> None:
    """ "Any comedies instead?" after a crime request: Crime may go into the exclusions (the
    model wrote Comedy there, the only genre admitted, and the call was refused); "From the
    90s?" after it may keep Crime. Nobody asked about a genre: it stays out."""

    class Input(BaseModel):
        genres: list[Genre] = Field([], json_schema_extra=entity("genre"))
        exclude_genres: list[Genre] = Field([], json_schema_extra=entity("genre"))
        year_from: int | None = Field(None, json_schema_extra=entity("year-from"))

    def admitted(schema: dict[str, Any]) -> list[str]:
        return [v for o in schema["items"].get("anyOf", [schema["items"]]) for v in o["enum"]]

    tool = ScriptedTool("recommend", "Movies to watch.", Input)
    comedy = GenreMention(text="comedies", start=4, end=12, genre="Comedy")
    crime = Linked(genres=[GenreMention(text="crime", start=12, end=17, genre="Crime")])
    instead = tool_input_schema(tool, Linked(genres=[comedy]), earlier=crime)["properties"]
    assert admitted(instead["exclude_genres"]) == ["Comedy", "Crime"]
    assert admitted(instead["genres"]) == ["Comedy", "Crime"]
    assert admitted(tool_input_schema(tool, Linked(genres=[comedy]))["properties"]["genres"]) == [
        "Comedy"
    ]
    nineties = Linked(years=[YearsMention(text="90s", start=9, end=12, first=1990, last=1999)])
    kept = tool_input_schema(tool, nineties, earlier=crime)["properties"]
    assert admitted(kept["genres"]) == ["Crime"]
    assert "genres" not in tool_input_schema(tool, nineties)["properties"]


def test_a_follow_up_naming_nothing_writes_the_lists_of_what_was_asked_about() -> None:
    """ "Any more like that one?" after "Who directed Pulp Fiction?" names nothing itself: the
    model wrote the director the answer named and no film. The kinds the last turns asked about
    stand for the question's: the movie list is written (possibly empty). A follow-up that
    names something goes by what it names."""

    class Input(BaseModel):
        movies: list[str] = Field(default_factory=list, json_schema_extra=entity("movie"))
        people: list[str] = Field(default_factory=list, json_schema_extra=entity("person"))

    tool = ScriptedTool("recommend", "Movies to watch.", Input)
    pulp = MovieMatch(movie_id=296, title="Pulp Fiction", year=1994, name="Pulp Fiction", score=1)
    asked = Linked(movies=[MovieMention(text="Pulp Fiction", start=13, end=25, candidates=[pulp])])
    assert tool_input_schema(tool, Linked(), earlier=asked)["required"] == ["movies"]
    assert "required" not in tool_input_schema(tool, Linked())
    hanks = PersonMention(
        text="Tom Hanks", start=0, end=9, candidates=[PersonMatch(name="Tom Hanks", score=1)]
    )
    named = tool_input_schema(tool, Linked(people=[hanks]), earlier=asked)
    assert named["required"] == ["people"]
