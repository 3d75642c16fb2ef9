"""Entity linking on the real graph: kinds of mention (titles, aliases, misspellings, other
languages, lower case, people, genres, years) and the ordinary words that are not names."""

from __future__ import annotations

import csv
import re
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel, Field

from semantic_layer.errors import ToolArgumentsError
from semantic_layer.linking.arguments import dated_arguments, entity, link_arguments
from semantic_layer.linking.genres import genre_mentions
from semantic_layer.linking.linker import link
from semantic_layer.linking.names import last_name, name_particles
from semantic_layer.linking.years import years_mentions


def _movies(linked: Any, strong: bool = True) -> list[str]:
    found = linked.strong_movies() if strong else linked.movies
    return [m.best.label for m in found]


@pytest.mark.parametrize(
    ("question", "label"),
    [
        ("who made the big lebowski", "The Big Lebowski (1998)"),  # all lower case
        ("Who directed the shawshenk redemption?", "The Shawshank Redemption (1994)"),  # typo
        ("I'm after a few Se7en-like films", "Seven (1995)"),  # an alias, glued to a word
        ("Qui joue dans Le Fabuleux Destin d'Amélie Poulain ?", "Amélie (2001)"),  # original
        ("Filmes parecidos com Matrix?", "The Matrix (1999)"),  # inside another language
        ("Spirited Away の監督は誰", "Spirited Away (2001)"),
        ("我喜欢Life of Pi推荐类似的电影", "Life of Pi (2012)"),  # no spaces around it
        ("Jaws was terrible, 1 star.", "Jaws (1975)"),  # a known title opening a sentence
        ("Something like the matrix, please.", "The Matrix (1999)"),  # its own article
        ("Something like die hard?", "Die Hard (1988)"),  # "die" is the title's word here
        ("Movies like Pulp Fictoin?", "Pulp Fiction (1994)"),  # typos inside long words
        ("who made the godfater", "The Godfather (1972)"),
        ("Was she in Batman & Robin?", "Batman & Robin (1997)"),  # "&", a word of its key
    ],
)
def test_a_title_is_found_however_it_is_written(
    tools_graph: Any, question: str, label: str
) -> None:
    linked = link(tools_graph, question)
    assert _movies(linked) == [label]
    mention = linked.movies[0]
    assert question[mention.start : mention.end] == mention.text


@pytest.mark.parametrize(
    ("question", "written"),
    [
        ("¿Qué nota le puse a Titanic?", "Titanic"),  # "a": no word of *Titanic*
        ("Je mets une étoile à Grease", "Grease"),  # "à" folds to the article "a"
        ("Something like the matrix, please.", "the matrix"),  # *Matrix, The*: its own
        ("I loved A Beautiful Mind", "A Beautiful Mind"),
    ],
)
def test_a_mention_is_written_with_the_titles_own_words_only(
    tools_graph: Any, question: str, written: str
) -> None:
    """What the question writes of the title, so that the rest is read as its language: an
    article the title does not have is the question's word."""
    assert [m.text for m in link(tools_graph, question).strong_movies()] == [written]


def test_people_are_found_by_full_name_with_a_possessive_and_by_surname(
    tools_graph: Any,
) -> None:
    assert [p.best.name for p in link(tools_graph, "Show me Steven Spielberg's films").people] == [
        "Steven Spielberg"
    ]
    nolan = link(tools_graph, "Anything by Nolan?").strong_people()
    assert nolan and nolan[0].best.name == "Christopher Nolan"  # the one with most films first


@pytest.mark.parametrize(
    ("question", "name"),
    [
        ("Anything with De Niro tonight?", "Robert De Niro"),  # a particle, written capital
        ("Which von Trier film is the darkest?", "Lars von Trier"),  # written lower case
        ("A Van Damme action movie, please", "Jean-Claude Van Damme"),
    ],
)
def test_a_last_name_begins_at_its_particle(tools_graph: Any, question: str, name: str) -> None:
    people = link(tools_graph, question).strong_people()
    assert [p.best.name for p in people] == [name]
    assert question[people[0].start : people[0].end].casefold() == " ".join(
        name.casefold().split()[-2:]
    )


def test_the_graphs_particles_are_its_own_lower_case_name_words(tools_graph: Any) -> None:
    particles = name_particles(tools_graph)
    assert {"de", "von", "van"} <= particles
    assert "lee" not in particles  # Tommy Lee Jones: a middle name, not a particle
    assert last_name("robert de niro", particles) == "de niro"
    assert last_name("tommy lee jones", particles) == "jones"
    assert last_name("cher", particles) == ""


def test_a_name_beside_a_capital_word_is_weak_but_not_beside_a_capital_letter(
    tools_graph: Any,
) -> None:
    """A capitalized neighbour makes a longer name ("the Ford Motor Company"); the pronoun "I"
    does not."""
    assert not link(tools_graph, "Who founded the Ford Motor Company?").strong_people()
    people = link(tools_graph, "Something by Nolan I haven't seen?").strong_people()
    assert [p.best.name for p in people] == ["Christopher Nolan"]


def test_a_last_name_of_someone_with_one_film_is_weak(tools_graph: Any) -> None:
    """The word "France" is the last name of an actor with one film in the graph (and, from its particle
    on, of Cécile De France's: "De France"): a place, not a person."""
    linked = link(tools_graph, "What is the capital of France?")
    assert linked.strong_people() == []
    assert [p.text for p in linked.people] == ["France"]  # kept, marked weak


@pytest.mark.parametrize(
    ("question", "movies", "people"),
    [
        # a title few rated gives way to a director with many films
        ("Pick me a Hitchcock film for tonight.", [], ["Alfred Hitchcock"]),
        ("Last night I saw Hitchcock (2012).", ["Hitchcock (2012)"], []),  # dated: the film
        # a title many rated keeps the word (Will Patton has a few films)
        ("Who starred in Patton?", ["Patton (1970)"], []),
        ("What state is Fargo in?", ["Fargo (1996)"], []),
    ],
)
def test_a_last_name_that_is_also_a_title_goes_to_the_better_known(
    tools_graph: Any, question: str, movies: list[str], people: list[str]
) -> None:
    linked = link(tools_graph, question)
    assert _movies(linked) == movies
    assert [p.best.name for p in linked.people] == people


@pytest.mark.parametrize(
    ("question", "best", "offered"),
    [
        ("Who directed Psycho (1998)?", "Psycho (1998)", ["Psycho (1998)"]),  # year in brackets
        ("Who stars in the 2002 Solaris?", "Solaris (2002)", ["Solaris (2002)"]),  # a year apart
        ("Who directed Psycho?", "Psycho (1960)", ["Psycho"]),  # none: the tool asks which one
    ],
)
def test_a_year_the_question_writes_picks_one_of_the_films_of_a_title(
    tools_graph: Any, question: str, best: str, offered: list[str]
) -> None:
    """The film a year picks is the one shown and the name offered for the argument (with its
    year, so the tool takes that one); without a year the title is offered alone."""
    from semantic_layer.linking.arguments import linked_names

    linked = link(tools_graph, question)
    assert _movies(linked) == [best]
    assert linked_names(linked, "movie") == offered


def test_a_movie_and_a_person_in_one_question_are_both_found(tools_graph: Any) -> None:
    linked = link(tools_graph, "Is Brad Pitt in Fight Club?")
    assert _movies(linked) == ["Fight Club (1999)"]
    assert [p.best.name for p in linked.strong_people()] == ["Brad Pitt"]


@pytest.mark.parametrize(
    "question",
    [
        "What is the boiling point of water?",  # ordinary lower-case words that are titles
        "Who won the 2018 World Cup?",  # a capitalized word inside a longer name
        "How tall is Mount Everest?",
        "What should I watch tonight?",
        "What is the speed of light?",  # an article before a title that has none (*Speed*)
        "Recommend an animated film for the kids.",  # *Kids*
        "Something the whole family can watch tonight?",  # one letter from *The Family Man*
    ],
)
def test_ordinary_words_that_are_also_titles_are_at_most_weak(
    tools_graph: Any, question: str
) -> None:
    linked = link(tools_graph, question)
    assert _movies(linked) == []
    assert linked.strong_people() == []


@pytest.mark.parametrize(
    ("question", "genres", "written"),
    [
        # *Scary Movie* (2000), rated by 50 viewers: the words are the genre
        ("A scary movie for tonight, please", ["Horror"], "scary movie"),
        ("Who was the first man on the moon?", [], "man on the moon"),  # *Man on the Moon*: 39
    ],
)
def test_a_common_phrase_in_lower_case_is_not_a_lesser_known_title_in_a_text_with_capitals(
    tools_graph: Any, question: str, genres: list[str], written: str
) -> None:
    linked = link(tools_graph, question)
    assert _movies(linked) == []
    assert [m.text for m in linked.movies] == [written]  # kept, marked weak
    assert [g.genre for g in linked.genres] == genres
    titled = question.replace(written, written.title())  # written as a title, it is the film
    assert len(_movies(link(tools_graph, titled))) == 1
    assert _movies(link(tools_graph, question.lower()))  # in a lower-case text, many rated it


@pytest.mark.parametrize(
    ("question", "title"),
    [
        ("Great, rate it 5 for me.", "The Great Race"),  # "great rate"
        ("Something the whole family can watch tonight?", "The Family Man"),  # "family can"
        ("Scary movies from the eighties", "Scary Movie"),  # a plural: another form, no typo
        ("scary movies from the eighties", "Scary Movie"),
    ],
)
def test_a_word_written_otherwise_is_another_word_not_a_typo(
    tools_graph: Any, question: str, title: str
) -> None:
    found = [c.title for m in link(tools_graph, question).movies for c in m.candidates]
    assert title not in found


def test_genres_are_found_in_several_languages_but_not_inside_a_title(
    tools_graph: Any,
) -> None:
    assert [g.genre for g in genre_mentions("Une comédie à me conseiller ?")] == ["Comedy"]
    assert [g.genre for g in genre_mentions("einen guten Science-Fiction-Film")] == ["Sci-Fi"]
    assert [g.genre for g in genre_mentions("ホラー映画")] == ["Horror"]
    assert [g.genre for g in genre_mentions("una película bélica")] == ["War"]
    assert [g.genre for g in genre_mentions("un film bellico")] == ["War"]
    linked = link(tools_graph, "Who directed The Rocky Horror Picture Show?")
    assert _movies(linked) == ["The Rocky Horror Picture Show (1975)"]
    assert linked.genres == []


def test_a_genre_word_that_is_also_an_obscure_title_stays_a_genre(tools_graph: Any) -> None:
    # "Romance" (1999) and "Comedian" (2002) are titles too, linked weakly: the genre wins
    linked = link(tools_graph, "A comedy without any romance, please.")
    assert [g.genre for g in linked.genres] == ["Comedy", "Romance"]
    assert [g.genre for g in link(tools_graph, "¿Me recomiendas una comedia?").genres] == ["Comedy"]


@pytest.mark.parametrize(
    ("question", "tags"),
    [
        ("Which movies are tagged twist ending?", ["twist ending"]),  # a tag of two words
        ("Films people tag as Time Travel", ["time travel"]),  # any case
        ("movies tagged dark comedy", ["dark comedy"]),  # the longest run, not "dark" in it
        ("Who directed The Dark Knight?", []),  # "dark" is a word of the title
        ("Best horror movies of the 80s?", []),  # the words of a genre are the genre
        ("Hidden gems similar to Memento?", []),  # no viewer wrote it
    ],
)
def test_the_tags_a_text_names_are_the_graphs_own(
    tools_graph: Any, question: str, tags: list[str]
) -> None:
    assert [t.tag for t in link(tools_graph, question).tags] == tags


def test_years_named_apart_make_one_range(tools_graph: Any) -> None:
    linked = link(tools_graph, "Recommend westerns released between 1960 and 1975.")
    assert [(y.first, y.last, y.text) for y in linked.years] == [(1960, 1975, "1960 and 1975")]
    decades = link(tools_graph, "something from the 80s or 90s")
    assert [(y.first, y.last) for y in decades.years] == [(1980, 1999)]
    titled = link(tools_graph, "Something like Heat (1995) from the 2000s")
    assert [(y.first, y.last) for y in titled.years] == [(2000, 2009)]


def test_a_title_that_is_a_year_alone_is_both_the_film_and_the_year(tools_graph: Any) -> None:
    # 2012 (2009) is a film; "newer than 2012" asks for years, "I loved 2012" for the film:
    # both are linked and the model decides
    linked = link(tools_graph, "horror movies newer than 2012")
    assert _movies(linked) == ["2012 (2009)"]
    assert [(y.first, y.last, y.text) for y in linked.years] == [(2012, 2012, "2012")]
    # a year inside a longer title is the title's
    for question in ("Is 2001: A Space Odyssey good?", "Blade Runner 2049 cast"):
        titled = link(tools_graph, question)
        assert _movies(titled) and titled.years == []


def test_years_and_decades_become_ranges() -> None:
    found = [(y.first, y.last) for y in years_mentions("a 90s thriller, or from the 1980s, 2004")]
    assert found == [(1990, 1999), (1980, 1989), (2004, 2004)]
    assert years_mentions("rated 4.5 by 1000000 people") == []


def ranges(text: str) -> list[tuple[int, int]]:
    """The years and decades `text` names, as (first, last) years."""
    return [(y.first, y.last) for y in years_mentions(text)]


def test_a_decade_ending_inflected_like_a_word_is_a_decade() -> None:
    # the ending takes the case ending of the sentence around it ("aus den 2000ern")
    assert ranges("eine Komödie aus den 2000ern") == [(2000, 2009)]
    assert ranges("Filme aus den 80ern") == [(1980, 1989)]
    assert ranges("the 1980s") == [(1980, 1989)]
    # numbers with other words attached are not decades
    assert ranges("the 20th century") == []
    assert ranges("a 2000km road trip") == []


def test_decades_named_in_words_or_after_the_years_of_become_ranges() -> None:
    assert ranges("war movies from the sixties") == [(1960, 1969)]
    assert ranges("eine Komödie aus den Achtzigern") == [(1980, 1989)]
    assert ranges("un film des années 70") == [(1970, 1979)]
    assert ranges("dos anos 2000") == [(2000, 2009)]  # the decade, not the year 2000
    assert ranges("degli anni '90") == [(1990, 1999)]
    assert ranges("80er Jahre") == [(1980, 1989)]
    assert ranges("a movie from 2000") == [(2000, 2000)]
    assert ranges("anni 95") == []  # not a decade
    # one "the years of" before several decades joined by a short word or a sign
    assert ranges("un film des années 80 et 90") == [(1980, 1999)]
    assert ranges("anni 60 e 70, per favore") == [(1960, 1979)]
    assert ranges("los años 70/80") == [(1970, 1989)]
    assert ranges("années 80 et 3 étoiles") == [(1980, 1989)]  # a rating is not a decade


def test_a_decade_whose_tens_are_in_words_after_the_years_of_is_a_range() -> None:
    assert ranges("¿Qué película de los años setenta?") == [(1970, 1979)]
    assert ranges("un bel film degli anni Quaranta") == [(1940, 1949)]
    assert ranges("een film uit de jaren zeventig") == [(1970, 1979)]
    assert ranges("dos anos oitenta e noventa") == [(1980, 1999)]
    assert ranges("la década de los cincuenta") == [(1950, 1959)]
    # the longer of two tens that begin alike: 70, not 60
    assert ranges("un film des années soixante-dix") == [(1970, 1979)]
    assert ranges("les années quatre-vingt-dix") == [(1990, 1999)]
    # a number's tens alone, or a longer number, are no decade
    assert ranges("setenta minutos de película") == []
    assert ranges("dopo anni ventitré") == []


def test_a_decade_in_words_is_linked_beside_a_genre(tools_graph: Any) -> None:
    linked = link(tools_graph, "Any war movies from the sixties worth seeing?")
    assert [(y.first, y.last, y.text) for y in linked.years] == [(1960, 1969, "sixties")]
    italian = link(tools_graph, "Consigliami un film di fantascienza degli anni 90.")
    assert [(y.first, y.last) for y in italian.years] == [(1990, 1999)]
    assert [g.genre for g in italian.genres] == ["Sci-Fi"]


def test_a_year_or_decade_that_ends_a_sentence_is_read() -> None:
    ends = [(y.first, y.last) for y in years_mentions("Made in the 2000s. Or in 1995! Or 1987.")]
    assert ends == [(2000, 2009), (1995, 1995), (1987, 1987)]
    assert years_mentions("version 1995.2") == []


class _Rating(BaseModel):
    movie: str = Field(json_schema_extra=entity("movie"))
    rating: float


@pytest.mark.parametrize(
    ("written", "linked_to"),
    [
        ("Jurassic Park 3.5 stars", "Jurassic Park"),  # a rating glued to the title
        ("the movie Heat", "Heat (1995)"),  # a word for the kind around the name
        ("Heat", "Heat"),  # a name the graph knows stays as written
    ],
)
def test_a_marked_argument_is_linked_to_the_one_name_inside_it(
    tools_graph: Any, written: str, linked_to: str
) -> None:
    args = link_arguments(_Rating(movie=written, rating=3.5), tools_graph)
    assert args.movie == linked_to


class _Person(BaseModel):
    person: str = Field(json_schema_extra=entity("person"))


def test_a_last_name_argument_is_linked_only_to_someone_known(tools_graph: Any) -> None:
    """The argument "Nolan" is Christopher Nolan; "France" (the model's argument for "the capital of
    France") is not made into Jim France, an actor with one film."""
    assert link_arguments(_Person(person="Nolan"), tools_graph).person == "Christopher Nolan"
    assert link_arguments(_Person(person="France"), tools_graph).person == "France"


class _Cast(BaseModel):
    people: list[str] = Field(default_factory=list, json_schema_extra=entity("person"))


def test_a_value_writing_several_names_is_a_list_of_them_or_refused(tools_graph: Any) -> None:
    """A cast copied whole into a name ("Julia Roberts, Hugh Grant", after an answer naming
    both): a list takes each of them; a field that takes one refuses it, saying whom it names,
    so the model can choose. One name, and a name the graph knows, stay as they were."""
    copied = "Julia Roberts, Hugh Grant"
    listed = link_arguments(_Cast(people=[copied, "Tom Hanks"]), tools_graph)
    assert listed.people == ["Julia Roberts", "Hugh Grant", "Tom Hanks"]
    with pytest.raises(ToolArgumentsError, match=r"names 2 \(Julia Roberts, Hugh Grant\)"):
        link_arguments(_Person(person=copied), tools_graph)
    assert link_arguments(_Person(person="Julia Roberts"), tools_graph).person == "Julia Roberts"
    assert link_arguments(_Cast(people=["Hugh Grant"]), tools_graph).people == ["Hugh Grant"]


def test_a_shared_title_is_the_film_the_conversation_dated(tools_graph: Any) -> None:
    """ "Titanic" is two films; the one the conversation wrote with its year is meant. No film
    dated, or a value that is not a shared title, stays as written."""
    dated = link(tools_graph, "Titanic (1997) was directed by James Cameron.").dated_movies()
    assert dated_arguments(_Rating(movie="Titanic", rating=4), tools_graph, dated).movie == (
        "Titanic (1997)"
    )
    older = link(tools_graph, "Titanic (1953) stars Clifton Webb.").dated_movies()
    assert dated_arguments(_Rating(movie="titanic", rating=4), tools_graph, older).movie == (
        "Titanic (1953)"
    )
    assert dated_arguments(_Rating(movie="Titanic", rating=4), tools_graph, set()).movie == (
        "Titanic"
    )
    assert dated_arguments(_Rating(movie="Heat", rating=4), tools_graph, dated).movie == "Heat"
    # a year the question writes picks one too
    picked = link(tools_graph, "Who stars in the 2002 Solaris?").dated_movies()
    assert dated_arguments(_Rating(movie="Solaris", rating=4), tools_graph, picked).movie == (
        "Solaris (2002)"
    )


def test_an_argument_naming_nothing_is_left_as_written(tools_graph: Any) -> None:
    args = link_arguments(_Rating(movie="qwzx vbnm", rating=3), tools_graph)
    assert args.movie == "qwzx vbnm"


def test_recent_is_the_graphs_last_years(tools_graph: Any, ml_small: Path) -> None:
    with (ml_small / "movies.csv").open(encoding="utf-8") as f:
        years = [re.search(r"\((\d{4})\)\s*$", row["title"]) for row in csv.DictReader(f)]
    latest = max(int(y.group(1)) for y in years if y)
    linked = link(tools_graph, "Any recent sci-fi worth watching?")
    assert [(y.first, y.last, y.text) for y in linked.years] == [(latest - 4, latest, "recent")]
    assert [g.genre for g in linked.genres] == ["Sci-Fi"]
    german = link(tools_graph, "Die neuesten Komödien, bitte")
    assert [(y.first, y.last) for y in german.years] == [(latest - 4, latest)]
    assert years_mentions("something recent") == []  # without a graph there is no latest year
    asked: list[int] = []
    years_mentions("a 90s thriller", lambda: asked.append(1) or 2018)
    assert asked == []  # the graph is asked only when the text says "recent"
