"""What the user's own words ask for, where a small model's tool call says otherwise.

Asked "¿Qué películas se parecen a Amores Perros?", "What would fans of Goodfellas like?" or
"My Neighbor Totoro に似た映画は", a 1.5B model looks the movie up with `information`: it
knows the title and misses the request around it. The words just before the title ("like",
"similar to", "fans of", "people who liked", "comme", "wie", "como", "类似") or just after it
("に似た", "みたいな") ask for movies like it, in English, French, German, Spanish, Italian,
Portuguese, Chinese and Japanese. `asks_like` tells the loop to send such a call back once;
`liked_titles` gives the words after such a marker, for a recommender call that dropped the
movie ("Something like Pulp Fiction, but a comedy" called with only the genre).

`gives_rating` tells a rating given in this question ("4 stars", "I loved it", "cinq
étoiles") from a question that only mentions ratings ("recommend from my own ratings"): a
memory call for the latter repeats a rating of an earlier turn.

The loop uses two entry points: `redirect` names the correction for a call the question
contradicts (sent back once, with the call to make written out), and `complete_arguments`
fills in, without a model call, what the question names and the call lacks or misreads (the
movie after "like", the one genre named, the one rating stated in digits).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from typing import Any

from agent.grounding import genre_mentioned, genre_named, ungrounded_arguments
from semantic_layer.graph.base import Graph
from semantic_layer.resolve.kind import Fit, fit, without_kind_words
from semantic_layer.resolve.reader import Reader
from semantic_layer.tools.contract import Tool
from semantic_layer.tools.trace import TracedGraph

RECOMMENDER = "recommender"  # the tool for movies to watch
_NAMES = ("entity", "movie", "title")  # the arguments that name the movie a call is about

# words before a title that ask for movies like it ("like" itself is handled apart: "I like
# Heat" is not a request)
# fmt: off
_BEFORE = (
    r"similar to|similar as|fans? of|(?:who|that|people|folks|viewers|if (?:i|you|we)|since i) "
    r"(?:liked|loved|enjoyed)|in the (?:vein|style|spirit) of|along the lines of|reminds? me of|"
    r"(?:the )?same (?:vibe|spirit|style|feel|kind|sort) as|comparable to|akin to|resembling|"
    r"(?:see|watch|view|try) (?:next )?after|"
    r"comme|semblables? à|similaires? à|ressemblant à|qui ressemblent à|du genre de|"
    r"dans le style de|proches? de|"
    r"ähnlich wie|ähnliche? (?:filme? )?wie|ähnlich zu|so wie|im stil von|"
    r"como|parecid[oa]s? a|se parecen? a|se parezcan a|similar(?:es)? a|al estilo de|"
    r"simil[ei] a|sul genere di|nello stile di|"
    r"parecid[oa]s? com|semelhantes? a|no estilo de|"
    r"wie|tipo|come"
)
# fmt: on
_BEFORE_CJK = ("类似", "類似", "像", "相似于", "好像")
_AFTER_CJK = ("に似た", "に似て", "みたいな", "のような", "っぽい", "に近い", "类似的", "相似的",
              "一样的", "那样的", "差不多的", "類似的")  # fmt: skip
_LIKE_VERB_BEFORE = frozenset(  # "I like Heat", "would you like", "do they like"
    {"i", "you", "we", "they", "he", "she", "would", "do", "does", "did", "don't", "dont", "d",
     "ll", "really", "also", "still", "might", "will", "to", "not", "feel", "feels", "look",
     "looks", "sound", "sounds", "seem", "seems", "is", "was", "s"}
)  # fmt: skip
# a marker: one of `_BEFORE`, or "like" after a word that may not make it a verb (checked apart)
_MARKER = rf"(?<!\w)(?:{_BEFORE}|(?P<verb>\w+)\s+(?:just\s+|a bit\s+|kind of\s+|more\s+)?like)"
_MARKER_AT = re.compile(_MARKER + r"(?=\s|[\"'\u201c\u201d«»「」『』\u2018\u2019])")  # anywhere
_MARKER_END = re.compile(_MARKER + r"\s*$")  # ending the text before a title
_QUOTES = " \t\"'\u201c\u201d«»「」『』\u2018\u2019"  # spaces, quotes of every kind
_CLAUSE_END = re.compile("[.?!;。\uff1f\uff01\uff1b]")  # with the full-width ones
MAX_TITLE_WORDS = 10
# what follows "like" and names the earlier turn's movie, or nothing ("It" is also a film)
_NOT_TITLES = frozenset(
    {"", "a", "an", "the", "it", "that", "this", "that one", "this one", "these", "those",
     "them", "one", "me", "something", "anything", "ones", "those ones"}
)  # fmt: skip
MAX_LOOKUPS = 24  # titles tried per question, at most


def asks_like(question: str, title: str) -> bool:
    """Whether `question` asks for movies like `title`: a marker right before or after it."""
    text, name = question.casefold(), title.casefold().strip(_QUOTES)
    start = text.find(name) if name else -1
    if start < 0:
        return False
    before = text[:start].rstrip(_QUOTES)
    after = text[start + len(name) :].lstrip(_QUOTES)
    return _ends_with_marker(before) or before.endswith(_BEFORE_CJK) or after.startswith(_AFTER_CJK)


def liked_titles(question: str) -> Iterator[str]:
    """The texts that may name the movie the question asks to match, longest first: after each
    marker, the words up to the sentence end, then shorter and shorter prefixes ("Pulp Fiction,
    but a comedy", ..., "Pulp Fiction"); before a Japanese/Chinese marker, shorter and shorter
    tails ("My Neighbor Totoro", "Neighbor Totoro", ...)."""
    text = question.strip()
    seen: set[str] = set()
    for start in _title_starts(text.lower()):  # same length as `text` (casefold turns ß into ss)
        rest = _CLAUSE_END.split(text[start:], maxsplit=1)[0].split()
        for candidate in _prefixes(rest):
            if candidate not in seen:
                seen.add(candidate)
                yield candidate
    for marker in _AFTER_CJK:
        at = text.find(marker)
        if at > 0:
            words = _CLAUSE_END.split(text[:at])[-1].split()[-MAX_TITLE_WORDS:]
            yield from (" ".join(words[i:]).strip(_QUOTES + ",") for i in range(len(words)))


def liked_movie(question: str, graph: Reader) -> str | None:
    """The movie the question asks to match ("like Pulp Fiction, but a comedy"), when the words
    after a marker name one by its title or an alias (never a fuzzy guess)."""
    for n, text in enumerate(liked_titles(question)):
        if n >= MAX_LOOKUPS:
            break
        if text.casefold() not in _NOT_TITLES and fit(graph, text, "movie") == Fit.BY_NAME:
            return text
    return None


def _prefixes(words: list[str]) -> Iterator[str]:
    words = words[:MAX_TITLE_WORDS]
    for n in range(len(words), 0, -1):
        candidate = " ".join(words[:n]).strip(_QUOTES + ",:")
        if candidate:
            yield candidate


def _title_starts(folded: str) -> list[int]:
    """Where a title may begin in `folded`, in order: after a marker and the space (and quotes)
    that follow it, or right after a Chinese marker. One pass per kind of marker."""
    starts = {
        end
        for found in _MARKER_AT.finditer(folded)
        if _asks(found) and (end := _after_space(folded, found.end())) is not None
    }
    for marker in _BEFORE_CJK:
        at = folded.find(marker)
        while at >= 0:
            starts.add(at + len(marker))
            at = folded.find(marker, at + 1)
    return sorted(starts)


def _after_space(folded: str, end: int) -> int | None:
    """The index after the first space that follows `end` through quotes and spaces only."""
    for at in range(end, len(folded)):
        if folded[at].isspace():
            return at + 1
        if folded[at] not in _QUOTES:
            return None
    return None


def _ends_with_marker(before: str) -> bool:
    return _asks(_MARKER_END.search(before))


def _asks(marker: re.Match[str] | None) -> bool:
    """Whether a marker found asks for movies like what follows ("I like Heat" does not)."""
    return marker is not None and marker.group("verb") not in _LIKE_VERB_BEFORE


# a number of stars, a score, or a verb of liking in the question itself
_RATING_CUES = re.compile(
    r"\d|\b(?:one|two|three|four|five|half|un|une|deux|trois|quatre|cinq|ein|eine|zwei|drei|"
    r"vier|fünf|uno|dos|tres|cuatro|cinco|due|tre|quattro|star|étoile|stern|estrella|stella|"
    r"estrela|lov|like|liked|hate|adore|enjoy|awful|terrible|great|amazing|boring|brilliant|"
    r"meh|okay|ok|rate|rating|note|aim|ador|déteste|mag|liebe|hass|encant|gust|odi|piac)"
    r"|[一二三四五星分]|好き|嫌い|最高|喜欢|讨厌"
)
# asking for movies to watch ("recommend me something from my own ratings")
_WANTS_MOVIES = re.compile(
    r"recomm|recom[ei]nd|recomiend|suggest|watch|\bpick|empfehl|empfiehl|conseill|consigli|sugier|"
    r"sugere|indica|おすすめ|推荐"
)
# words that only point at ratings already given ("from my own ratings")
_RATINGS_MENTIONED = re.compile(r"\b(?:my|own|based on|from|going by)\s+(?:own\s+)?ratings?\b")


def gives_rating(question: str) -> bool:
    """Whether the question itself gives a rating (a number, stars, a verb of liking)."""
    text = _RATINGS_MENTIONED.sub(" ", question.casefold())
    return bool(_RATING_CUES.search(text))


def redirect(
    tool: str, arguments: Mapping[str, Any], question: str
) -> tuple[str, dict[str, str]] | None:
    """The correction for a call the question's own words contradict, with its details, or
    None: a movie looked up when the user asks for movies like it ("wants_similar") or, named
    in an earlier turn, when they ask what to watch ("wants_movies"), a genre passed as a tag
    or as the whole question ("genre_as_tag"), a rating stored when this question gives none
    ("no_rating": the rating of an earlier turn, repeated)."""
    if tool == RECOMMENDER:
        return None
    wants = bool(_WANTS_MOVIES.search(question.casefold()))
    for name in _NAMES:
        value = arguments.get(name)
        if not isinstance(value, str):
            continue
        if asks_like(question, value):
            call = {"movie": value}
            genre = genre_named(question, leave_out=[value])
            return "wants_similar", {"call": _call({**call, "genre": genre} if genre else call)}
        if wants and "rating" not in arguments and ungrounded_arguments({name: value}, [question]):
            # "Und was empfiehlst du mir jetzt?" looked up the movie of an earlier turn
            similar = any(True for _ in liked_titles(question))  # "something like it"
            return "wants_movies", {"call": _call({"movie": value} if similar else {})}
    for name in ("tag", "entity"):
        value = arguments.get(name)
        genre = _genre_alone(value, question, asks=wants or name == "tag")
        if genre is not None and "tag" not in question.casefold():
            return "genre_as_tag", {"tag": str(value), "call": _call({"genre": genre})}
    movie = arguments.get("movie")
    if (
        "rating" in arguments
        and isinstance(movie, str)
        and ungrounded_arguments({"movie": movie}, [question])
        and not gives_rating(question)
    ):
        then = (
            f"Call: {_call({})}"
            if _WANTS_MOVIES.search(question.casefold())
            else "Call the tool that answers this question."
        )
        return "no_rating", {"movie": movie, "then": then}
    return None


def recommender_call(question: str) -> str | None:
    """The recommender call a request for movies to watch asks for ("Und was empfiehlst du mir
    jetzt?": no arguments; "Kannst du mir einen Western empfehlen?": the genre), or None."""
    if not _WANTS_MOVIES.search(question.casefold()):
        return None
    genre = genre_named(question)
    return _call({"genre": genre} if genre else {})


_OUT_OF_FIVE = re.compile(r"\s*(?:/|out of|sur|von|de|su|em|di)\s*5(?!\d)", re.I)  # "2 out of 5"
_STATED = re.compile(r"(?<![\w.])([1-5](?:[.,]5)?)(?![\w.,]*\d)")


def stated_rating(question: str) -> float | None:
    """The one rating from 1 to 5 the question states in digits ("Put down 3 stars for
    Grease", "4.5/5"), or None when it states none or several ("Toy Story 3 gets a 4")."""
    text = _OUT_OF_FIVE.sub(" ", question)
    found = {float(n.replace(",", ".")) for n in _STATED.findall(text)}
    return found.pop() if len(found) == 1 else None


def complete_arguments(
    tool: Tool[Any], arguments: Mapping[str, Any], question: str, graph: Graph | None
) -> dict[str, Any]:
    """A call with what the question names and the call lacks or misreads: the rating it states
    in digits; for the recommender the movie after "like" (`liked_movie`) and the one genre its
    words name (`genre_named`: "a horror movie tonight" called with nothing, "fantascienza"
    read as Fantasy)."""
    done = dict(arguments)
    fields = tool.input_model.model_fields
    stated = stated_rating(question) if "rating" in fields else None
    if stated is not None and isinstance(done.get("rating"), int | float):
        done["rating"] = stated  # "Put down 3 stars for Grease" stored as 5
    if "genre" not in fields:
        return done
    if "movie" in fields and "movie" not in done and graph is not None:
        movie = liked_movie(question, TracedGraph(graph))
        if movie is not None:
            done["movie"] = movie
    titles = [done["movie"]] if isinstance(done.get("movie"), str) else []
    named = genre_named(question, leave_out=titles)
    genre = done.get("genre")
    if named is not None and (not isinstance(genre, str) or not genre_mentioned(genre, [question])):
        done["genre"] = named
    return done


def _call(arguments: dict[str, str]) -> str:
    return json.dumps({"action": RECOMMENDER, "action_input": arguments}, ensure_ascii=False)


def _genre_alone(value: Any, question: str, asks: bool) -> str | None:
    """The genre an argument is, where a genre is all it is: one word of a genre ("documentaries",
    "terror", not "dark comedy" or "pixar") in a request for movies, or the whole question
    passed on ("Un bon film de science-fiction")."""
    if not isinstance(value, str):
        return None
    genre = genre_named(value)
    words = _WORD.findall(without_kind_words(value).casefold())
    asked = _WORD.findall(question.casefold())
    if genre is None or not words or words[0] in _BRANDS:
        return None
    one_word = len(words) == 1 and asks  # "animated films" counts as one word
    whole_question = len(words) >= max(2, len(asked) - 1) and set(words) <= set(asked)
    return genre if one_word or whole_question else None


_WORD = re.compile(r"[^\W_]+(?:[-'][^\W_]+)*")
_BRANDS = frozenset({"pixar", "disney", "ghibli", "dreamworks", "marvel"})  # tags, not genres
