"""Answers rendered from the tools' typed results: every name, year, count and rating comes from
the payload, the rest from the language's template files."""

from __future__ import annotations

import re
import string
from collections.abc import Iterable

import pytest

from agent.prompt import PROMPTS_DIR, PromptTemplate
from agent.render import render_answer
from semantic_layer.resolve.candidate import Candidate
from semantic_layer.tools.payloads import (
    Basis,
    Film,
    MovieCard,
    PersonCard,
    Recommendation,
    Recommendations,
    Rows,
    SmalltalkReply,
    StoredRating,
    YourRating,
)
from semantic_layer.tools.result import ToolResult

RENDER = PROMPTS_DIR / "render"
LANGUAGES = sorted(p.name for p in RENDER.iterdir() if p.is_dir())
WORD = re.compile(r"\w+")


def _template_words(language: str) -> set[str]:
    words: set[str] = set()
    for path in (RENDER / language).glob("*.txt"):
        template = string.Template(path.read_text(encoding="utf-8"))
        blanks = dict.fromkeys(template.get_identifiers(), " ")
        words |= set(WORD.findall(template.substitute(blanks)))
    return words


def _not_from_payload(answer: str, values: Iterable[str], language: str) -> set[str]:
    """The words of the answer that neither the payload nor the language's templates hold."""
    for value in sorted(set(values), key=len, reverse=True):
        answer = answer.replace(value, " ")
    return set(WORD.findall(answer)) - _template_words(language)


def _film(i: int, title: str, year: int | None) -> Film:
    return Film(movie_id=i, title=title, year=year)


JAWS = MovieCard(
    movie_id=1387,
    title="Jaws",
    year=1975,
    genres=["Action", "Horror", "Thriller"],
    directors=["Steven Spielberg"],
    cast=["Roy Scheider", "Robert Shaw", "Richard Dreyfuss", "Lorraine Gary", "Murray Hamilton"],
    tags=["shark"],
    rating_avg=3.8,
)
EASTWOOD = PersonCard(
    name="Clint Eastwood",
    acted_in=[
        _film(1, "Gran Torino", 2008),
        _film(2, "Unforgiven", 1992),
        _film(3, "Million Dollar Baby", 2004),
        _film(4, "Dirty Harry", 1971),
        _film(5, "Escape from Alcatraz", 1979),
        _film(6, "In the Line of Fire", 1993),
        _film(7, "Space Cowboys", 2000),
        _film(9, "The Good, the Bad and the Ugly", 1966),
        _film(10, "A Fistful of Dollars", 1964),
        _film(11, "For a Few Dollars More", 1965),
        _film(12, "Where Eagles Dare", 1968),
        _film(13, "Hang 'Em High", 1968),
    ],
    acted_in_count=24,
    directed=[
        _film(1, "Gran Torino", 2008),
        _film(8, "Mystic River", 2003),
    ],
    directed_count=2,
)


def _values(card: MovieCard | PersonCard) -> list[str]:
    if isinstance(card, MovieCard):
        return [card.label, *card.directors, *card.cast, *card.genres]
    films = [*card.acted_in, *card.directed]
    return [card.name, str(card.acted_in_count), str(card.directed_count)] + [
        f.label for f in films
    ]


def _ok(data: object, kind: str = "movie") -> ToolResult:
    return ToolResult.model_validate({"tool": "information", "kind": kind, "data": data})


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("card", [JAWS, EASTWOOD], ids=["movie", "person"])
def test_every_name_in_a_rendered_card_is_in_the_payload(
    card: MovieCard | PersonCard, language: str
) -> None:
    answer = render_answer([_ok(card)], language)
    assert _not_from_payload(answer, _values(card), language) == set()


def test_a_movie_card_names_title_year_directors_main_cast_and_genres() -> None:
    answer = render_answer([_ok(JAWS)], "en")
    for value in ["Jaws (1975)", "Steven Spielberg", "Lorraine Gary", "Horror"]:
        assert value in answer
    assert "Murray Hamilton" not in answer  # the fifth actor is past the main cast
    assert "shark" not in answer and "3.8" not in answer


def test_a_movie_card_asked_about_some_of_its_facts_is_answered_with_those() -> None:
    """ "Who directed Jaws?": the directors, not the cast and genres too; asked about its year
    only (no part of its own), the whole card as before."""
    directors = render_answer([_ok(JAWS.asked_about(["directors"]))], "en")
    assert directors == "Jaws (1975) was directed by Steven Spielberg."
    cast = render_answer([_ok(JAWS.asked_about(["cast"]))], "en")
    assert "Roy Scheider" in cast and "Spielberg" not in cast and "Horror" not in cast
    assert "Jaws (1975)" in cast
    year = render_answer([_ok(JAWS.asked_about(["year"]))], "en")
    assert year == render_answer([_ok(JAWS)], "en")


def test_a_person_gets_ten_films_a_role_in_the_cards_order_with_years_and_counts() -> None:
    answer = render_answer([_ok(EASTWOOD, "person")], "en")
    acted = [f.label for f in EASTWOOD.acted_in[:10]]
    positions = [answer.index(label) for label in acted]
    assert positions == sorted(positions)
    assert "Where Eagles Dare" not in answer and "Hang 'Em High" not in answer
    assert "Mystic River (2003)" in answer
    assert "24" in answer and "2 " in answer
    directed_line, acted_line = answer.splitlines()
    assert "Mystic River" in directed_line and "Unforgiven" in acted_line


def test_a_person_asked_about_one_role_gets_that_role_or_every_role_they_have() -> None:
    """ "What has Clint Eastwood directed?": his films as director; asked what Sofia Coppola
    acted in when the card holds no film she acted in, the films she directed, not nothing."""
    directed = render_answer([_ok(EASTWOOD.asked_about(["directors"]), "person")], "en")
    assert directed.startswith("Films directed by Clint Eastwood (2 in the graph)")
    assert "Unforgiven" not in directed and "\n" not in directed
    director = PersonCard(
        name="Sofia Coppola",
        acted_in=[],
        acted_in_count=0,
        directed=[_film(20, "Lost in Translation", 2003)],
        directed_count=1,
    )
    as_actor = render_answer([_ok(director.asked_about(["cast"]), "person")], "en")
    assert (
        as_actor == "Films directed by Sofia Coppola (1 in the graph): Lost in Translation (2003)."
    )


def test_a_person_with_five_films_in_all_gets_all_five() -> None:
    card = PersonCard(
        name="Jane Doe",
        acted_in=[_film(i, f"Film {i}", 2000 + i) for i in range(3)],
        acted_in_count=3,
        directed=[_film(9, "Her Own", 2010), _film(10, "Her Second", 2012)],
        directed_count=2,
    )
    answer = render_answer([_ok(card, "person")], "fr")
    assert all(f.label in answer for f in [*card.acted_in, *card.directed])


def test_a_person_without_films_says_so_and_names_none() -> None:
    card = PersonCard(name="Nobody", acted_in=[], acted_in_count=0, directed=[], directed_count=0)
    answer = render_answer([_ok(card, "person")], "en")
    assert "Nobody" in answer and not re.search(r"\(\d{4}\)", answer)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize(
    ("rating", "previous", "shown"),
    [(4.0, None, ["4/5"]), (3.5, 2.0, ["3.5/5", "2/5"]), (0.5, 5.0, ["0.5/5", "5/5"])],
)
def test_a_stored_rating_is_reported_exactly(
    language: str, rating: float, previous: float | None, shown: list[str]
) -> None:
    stored = StoredRating(
        movie_id=1387, title="Jaws", year=1975, rating=rating, previous=previous, user_id=7
    )
    answer = render_answer([_ok(stored, "rating")], language)
    assert "Jaws (1975)" in answer
    assert all(value in answer for value in shown)
    assert re.findall(r"\d+(?:\.\d+)?/5", answer) == shown  # no other rating


def test_the_english_rating_sentence() -> None:
    stored = StoredRating(movie_id=1387, title="Jaws", year=1975, rating=4.0, user_id=7)
    assert render_answer([_ok(stored, "rating")], "en") == "Stored 4/5 for Jaws (1975)."


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_users_own_rating_or_its_absence_is_said_exactly(language: str) -> None:
    rated = YourRating(movie_id=1387, title="Jaws", year=1975, rating=3.5)
    answer = render_answer([_ok(rated, "rating")], language)
    assert "Jaws (1975)" in answer and re.findall(r"\d+(?:\.\d+)?/5", answer) == ["3.5/5"]
    unrated = render_answer([_ok(YourRating(movie_id=1387, title="Jaws", year=1975, rating=None),
                                 "rating")], language)  # fmt: skip
    assert "Jaws (1975)" in unrated and not re.findall(r"\d/5", unrated)


def _recommendations(n: int, movie: str | None = "Heat (1995)") -> Recommendations:
    return Recommendations(
        basis=Basis(movie=movie),
        recommendations=[
            Recommendation(
                movie_id=i,
                title=f"Pick {i}",
                year=1990 + i,
                why=f"shares cast {i}",
                rating_avg=3.14 + i / 10,
                rating_count=40 + i,
            )
            for i in range(n)
        ],
    )


@pytest.mark.parametrize("language", LANGUAGES)
def test_recommendations_list_the_first_five_with_their_reasons(language: str) -> None:
    """The tool words its reasons in English: another language's rows say the rating and the
    number of ratings instead, in its own words, and no English reason."""
    payload = _recommendations(7)
    answer = render_answer([_ok(payload, "recommendations")], language)
    firsts = payload.recommendations[:5]
    assert all(f"{r.label}" in answer for r in firsts)
    assert "Pick 5" not in answer and "Pick 6" not in answer
    if language == "en":
        assert all(r.why in answer for r in firsts)
        reasons = [r.why for r in firsts]
    else:
        assert not any(r.why in answer for r in firsts)
        reasons = [v for r in firsts for v in (f"{r.rating_avg:.1f}", str(r.rating_count))]
        assert all(f"{r.rating_avg:.1f}/5" in answer and str(r.rating_count) in answer
                   for r in firsts)  # fmt: skip
    values = ["Heat (1995)", *(r.label for r in firsts), *reasons]
    assert _not_from_payload(answer, values, language) == set()


def test_a_recommendation_without_a_reason_is_listed_plainly() -> None:
    payload = Recommendations(
        basis=Basis(genres=["Comedy"]),
        recommendations=[Recommendation(movie_id=1, title="Airplane!", year=1980, why="")],
    )
    assert render_answer([_ok(payload, "recommendations")], "en").splitlines()[-1] == (
        "- Airplane! (1980)"
    )


@pytest.mark.parametrize("language", LANGUAGES)
def test_candidates_are_offered_by_their_labels(language: str) -> None:
    result = ToolResult(
        tool="information",
        ok=False,
        kind="candidates",
        candidates=[
            Candidate(label="Casino (1995)", title="Casino", year=1995),
            Candidate(label="Casino Royale (2006)", title="Casino Royale", year=2006),
        ],
    )
    answer = render_answer([result], language)
    assert "Casino (1995)" in answer and "Casino Royale (2006)" in answer
    values = ["Casino (1995)", "Casino Royale (2006)"]
    assert _not_from_payload(answer, values, language) == set()


@pytest.mark.parametrize("language", LANGUAGES)
def test_smalltalk_says_what_the_agent_does_and_names_no_example(language: str) -> None:
    examples = ["Recommend something like Heat", "What has Tom Hanks acted in?"]
    result = ToolResult(
        tool="smalltalk", kind="text", message="hi", data=SmalltalkReply(examples=examples)
    )
    answer = render_answer([result], language)
    assert "Heat" not in answer and "Tom Hanks" not in answer
    assert _not_from_payload(answer, [], language) == set()


def test_an_error_gives_the_tools_message_and_nothing_found_a_sentence() -> None:
    error = ToolResult(tool="information", ok=False, kind="error", message="No movie 'Jawz'.")
    assert render_answer([error], "de") == "No movie 'Jawz'."
    empty = _ok(_recommendations(0), "recommendations")
    nothing = render_answer([empty], "en")
    assert nothing == render_answer([], "en")
    assert nothing and _not_from_payload(nothing, [], "en") == set()


def test_a_name_nothing_is_called_is_said_in_the_questions_language() -> None:
    missing = ToolResult(
        tool="film_facts", ok=False, kind="error", unmatched="泰坦尼克号",
        message="No movie called '泰坦尼克号' is in the graph. Check the spelling.",
    )  # fmt: skip
    for language, words in [("zh", "英文上映片名"), ("de", "Schreibweise"), ("en", "spelling")]:
        answer = render_answer([missing], language)
        assert "泰坦尼克号" in answer and words in answer, language
        assert _not_from_payload(answer, ["泰坦尼克号"], language) == set()


def test_the_last_useful_result_is_rendered() -> None:
    error = ToolResult(tool="information", ok=False, kind="error", message="No such person.")
    stored = StoredRating(movie_id=1387, title="Jaws", year=1975, rating=5.0, user_id=7)
    answer = render_answer([_ok(JAWS), _ok(stored, "rating"), error], "en")
    assert answer == "Stored 5/5 for Jaws (1975)."


def test_rows_of_a_declared_tool_list_each_value_by_its_column() -> None:
    rows = Rows([
        {"title": "Heat", "year": 1995, "ratingAvg": 4.25, "imdb_rating": 8.3},
        {"title": "Ronin", "year": None},
        {"name": "Robert De Niro", "films": 3},
    ])  # fmt: skip
    answer = render_answer([_ok(rows, "rows")], "en")
    assert "- Heat (1995): rating avg 4.25, imdb rating 8.3" in answer.splitlines()
    assert "- Ronin" in answer.splitlines() and "None" not in answer
    assert "- Robert De Niro: films 3" in answer.splitlines()


def test_a_language_without_templates_gets_english() -> None:
    assert render_answer([_ok(JAWS)], "sv") == render_answer([_ok(JAWS)], "en")


def test_the_answered_languages_have_render_templates() -> None:
    assert {"en", "fr", "de", "es", "it", "pt", "nl", "ja", "zh", "ko"} <= set(LANGUAGES)


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_language_has_every_template_with_the_same_inputs(language: str) -> None:
    english = {p.stem: p for p in (RENDER / "en").glob("*.txt")}
    own = {p.stem for p in (RENDER / language).glob("*.txt")}
    assert own == set(english)
    for name, path in english.items():
        inputs = string.Template(path.read_text(encoding="utf-8")).get_identifiers()
        PromptTemplate.load(f"render/{language}/{name}", inputs)  # raises on a mismatch


@pytest.mark.parametrize("language", [lang for lang in LANGUAGES if lang != "en"])
def test_each_language_renders_in_its_own_words(language: str) -> None:
    assert render_answer([_ok(JAWS)], language) != render_answer([_ok(JAWS)], "en")
