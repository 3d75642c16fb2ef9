"""Movies and people a text mentions, found through the graph's full-text indexes.

Each word of the text (not a stop word) is looked up in the title index (titles and aliases)
and the name index, misspellings included (the index's fuzzy match); every hit's names are
then compared with the runs of words in the text of the same length, normalized the way titles
and names are keyed (`semantic_layer.normalize`). A run that reads as a hit's name (exactly,
or nearly for a long name, where only long words differ: a typo) is a mention; several hits for
one run are its candidates, best first. Overlapping runs keep the longest.

One ordinary word is weak evidence: "water" in "the boiling point of water" is not the film
*Water*. A one-word mention (an article the title does not have is no word of it: "the
kids" is one word, *Kids*) is therefore weak unless it is written with a capital (not as the
first word of a sentence, and not in a text written all in capitals or all in lower case),
or, in a lower-case text, it names a movie many people rated. Several words are stronger
evidence, but a common phrase is a title too: in a text that writes capitals, a title written
without any is taken only for one of the best-known films ("a scary movie" is the genre, not
*Scary Movie*). Weak mentions are kept, marked.

A person is also found by their last name alone ("Nolan"), which begins at a name particle of
the graph's own ("De Niro", "von Trier": a word some name writes in lower case between its
first and last word), and which names them only when the graph holds a few of their films:
"France" in "the capital of France" is the last name of an actor with one film, so it is weak.
"""

from __future__ import annotations

import contextlib
import itertools
import re
import weakref
from collections.abc import Iterable
from typing import Any

from semantic_layer.errors import GraphQueryError
from semantic_layer.linking.mentions import (
    MovieMatch,
    MovieMention,
    PersonMatch,
    PersonMention,
    Strength,
)
from semantic_layer.linking.tokens import Span, Word, all_lower, spans
from semantic_layer.linking.tokens import words as words_of
from semantic_layer.normalize import (
    ALIAS_SEPARATOR,
    ARTICLES,
    STOPWORDS,
    normalize_name,
    normalize_title,
)
from semantic_layer.resolve.reader import Reader
from semantic_layer.resolve.text import similarity

HITS_PER_WORD = 12  # full-text hits read for each word of the text
NEAR = 0.9  # a name this alike to a run of words (and long enough) is a mention
NEAR_MIN_CHARS = 8  # shorter names must match exactly
NEAR_WORD_MIN_CHARS = 5  # a word written otherwise holds a typo only if this long: see _misspelt
KNOWN = 20  # ratings that make a one-word lower-case title likely meant
WELL_KNOWN = 100  # ratings that make a lower-case title likely meant in a text with capitals
MAX_CANDIDATES = 5
SURNAME = 0.8  # the score of a person found by the last word of their name alone
SURNAME_MIN_CHARS = 4
KNOWN_FILMS = 3  # films in the graph that make a person likely meant by a last name alone
_BRACKETED_YEAR = re.compile(r"\s*\((\d{4})\)")


def movie_mentions(graph: Reader, text: str, found: list[Word]) -> list[MovieMention]:
    hits = _hits(graph, "resolve/movie_fulltext", found, "movieId")
    matches: dict[tuple[int, int], list[MovieMatch]] = {}
    places: dict[tuple[int, int], Span] = {}
    for row in hits:
        names = [row["title"], *_aliases(row)]
        best: dict[tuple[int, int], MovieMatch] = {}
        for name in names:
            key = normalize_title(name)
            for span, score in _runs(text, found, key, normalize_title, name):
                match = MovieMatch(
                    movie_id=row["movieId"],
                    title=row["title"],
                    year=row["year"],
                    name=name,
                    score=score,
                    rating_count=row.get("ratingCount") or 0,
                )
                at = (span.first, span.last)
                if at not in best or score > best[at].score:
                    best[at], places[at] = match, span
        for at, match in best.items():
            matches.setdefault(at, []).append(match)
    mentions = []
    for at, found_here in matches.items():
        span = places[at]
        year = year_after(text, span.end)  # "Psycho (1998)": that one first
        ranked = sorted(
            found_here, key=lambda m: (m.year != year, -m.score, -m.rating_count, m.movie_id)
        )
        mentions.append(
            MovieMention(
                text=span.text,
                start=span.start,
                end=span.end,
                strength=_strength(span, found, ranked[0].rating_count, ranked[0].name),
                candidates=ranked[:MAX_CANDIDATES],
                year=year,
            )
        )
    return _longest_first(mentions, found)


def year_after(text: str, end: int) -> int | None:
    """The year written in brackets right after a title ("Psycho (1998)"), if any."""
    match = _BRACKETED_YEAR.match(text, end)
    return int(match.group(1)) if match else None


def person_mentions(graph: Reader, text: str, found: list[Word]) -> list[PersonMention]:
    hits = _hits(graph, "resolve/person_fulltext", found, "name")
    matches: dict[tuple[int, int], list[PersonMatch]] = {}
    places: dict[tuple[int, int], Span] = {}
    particles = name_particles(graph) if any(_has_middle(row) for row in hits) else frozenset()
    for row in hits:
        key = row.get("nameNorm") or normalize_name(row["name"])
        surname = last_name(key, particles)
        runs = list(_runs(text, found, key, normalize_name, row["name"]))
        if len(surname) >= SURNAME_MIN_CHARS:  # "films by Nolan", "anything with De Niro"
            runs += [
                (span, SURNAME)
                for span, _ in _runs(text, found, surname, normalize_name, row["name"])
            ]
        for span, score in runs:
            at = (span.first, span.last)
            places[at] = span
            matches.setdefault(at, []).append(
                PersonMatch(
                    name=row["name"],
                    score=score,
                    directed=row.get("directed") or 0,
                    acted=row.get("acted") or 0,
                )
            )
    mentions = []
    for at, found_here in matches.items():
        ranked = sorted(found_here, key=lambda p: (-p.score, -(p.acted + p.directed), p.name))
        span, best = places[at], ranked[0]
        full_name = best.score > SURNAME
        strength = _strength(span, found, KNOWN if full_name and _known(best) else 0)
        mentions.append(
            PersonMention(
                text=span.text,
                start=span.start,
                end=span.end,
                strength=strength if names_someone(best) else "weak",  # "France": Jim France
                candidates=ranked[:MAX_CANDIDATES],
            )
        )
    return _longest_first(mentions, found)


def names_someone(match: PersonMatch) -> bool:
    """Whether what was written names the person: their full name (or nearly), or their last
    name alone when the graph holds a few of their films."""
    return match.score > SURNAME or _known(match)


def _known(match: PersonMatch) -> bool:
    return match.acted + match.directed >= KNOWN_FILMS


def last_name(key: str, particles: frozenset[str]) -> str:
    """The last name of a normalized full name: from its first particle on ("de niro" of
    "robert de niro", "de france" of "cecile de france"), else its last word; "" for a name of
    one word."""
    words = key.split()
    if len(words) < 2:
        return ""
    start = next((i for i in range(1, len(words) - 1) if words[i] in particles), len(words) - 1)
    return " ".join(words[start:])


def name_particles(graph: Reader) -> frozenset[str]:
    """The graph's name particles, normalized: the words its people's names write in lower
    case between their first and last word. Read once per graph object (a new import adds few
    names and rarely a particle)."""
    try:
        return _PARTICLES[graph]
    except (KeyError, TypeError):
        pass
    try:
        rows = graph.read("resolve/name_particles")
    except GraphQueryError:
        return frozenset()
    found = frozenset(filter(None, (normalize_name(str(r["word"])) for r in rows)))
    with contextlib.suppress(TypeError):  # a reader that cannot be weakly referenced
        _PARTICLES[graph] = found
    return found


_PARTICLES: weakref.WeakKeyDictionary[Any, frozenset[str]] = weakref.WeakKeyDictionary()


def _has_middle(row: dict[str, Any]) -> bool:
    return len(str(row.get("name", "")).split()) > 2


def _hits(graph: Reader, query: str, found: list[Word], key: str) -> list[dict[str, Any]]:
    """Full-text hits for each word of the text and each pair of neighbouring words, each
    looked up as written first and loosely (misspelt) only when that finds nothing."""
    terms = [w.folded if _searchable(w.folded) else None for w in found]
    groups = [[t] for t in terms if t] + [[a, b] for a, b in itertools.pairwise(terms) if a and b]
    rows: dict[Any, dict[str, Any]] = {}
    for words in dict.fromkeys(tuple(g) for g in groups):
        for fuzzy in (False, True):
            try:
                q = graph.fulltext_query(list(words), any_word=False, fuzzy=fuzzy)
                hits = graph.read(query, {"query": q, "limit": HITS_PER_WORD})
            except GraphQueryError:
                hits = []
            for row in hits:
                rows.setdefault(row[key], row)
            if hits:
                break
    return list(rows.values())


def _searchable(word: str) -> bool:
    return word.isalnum() and word not in STOPWORDS and (len(word) > 1 or not word.isascii())


def _aliases(row: dict[str, Any]) -> list[str]:
    text = row.get("aliasText")
    return [a for a in text.split(ALIAS_SEPARATOR) if a] if text else []


def _runs(
    text: str, found: list[Word], key: str, normalize: Any, name: str
) -> Iterable[tuple[Span, float]]:
    """The runs of words in `text` that read as `name`, keyed `key`, with how alike. A run
    may have a word fewer than the key (a sign the key writes as a word: "Batman & Robin" is
    two words of text and "batman and robin") or one more (a leading article: "The Matrix" for
    *Matrix, The*). An article the name does not have is no word of it: "a Titanic" in
    "¿Qué nota le puse a Titanic?" is written "Titanic", so the question's own words are
    still read as its language."""
    size = len(key.split())
    if not size:
        return
    own = {w.folded for w in words_of(name)}
    for span in spans(text, found, range(max(1, size - 1), size + 2)):
        opening = found[span.first].folded
        if span.last > span.first and opening in ARTICLES and opening not in own:
            continue
        typed = normalize(span.text)
        if not typed or len(typed.split()) != size:
            continue
        if typed == key:
            yield span, 1.0
        elif (
            len(key) >= NEAR_MIN_CHARS
            and _misspelt(typed, key)
            and (score := similarity(typed, key)) >= NEAR
        ):
            yield span, score


def _misspelt(typed: str, key: str) -> bool:
    """Whether the words of `typed` that differ from the name's may be typos of them: a typo
    hides in a long word ("godfater", "jurasic"); a short word written otherwise is another word
    ("family can" is not *The Family Man*, "great rate" not *The Great Race*), and a word that
    is the name's word with an ending added is another form of that word, not a slip of the
    keys ("scary movies" is not *Scary Movie*: a plural, a case ending, in any language)."""
    return all(
        a == b or (min(len(a), len(b)) >= NEAR_WORD_MIN_CHARS and not a.startswith(b))
        for a, b in zip(typed.split(), key.split(), strict=True)
    )


def _strength(span: Span, found: list[Word], popularity: int, title: str | None = None) -> Strength:
    """Weak: ordinary words that may not be a name (see the module's docstring). An article
    before a title that has none is no word of the name: "the kids" is one ordinary word, like
    "kids" (*Kids*), where "the matrix" (*Matrix, The*) and "die hard" are two. In a text that
    writes capitals, a title (`title` given: a movie's) of several words written without one is
    ordinary words unless the film is one of the best known (`WELL_KNOWN`): "something like die
    hard" is the film, "a scary movie" (*Scary Movie*, 50 ratings) and "the first man on the
    moon" (*Man on the Moon*, 39) are not; a person's full name written in lower case ("with
    tom hanks") is the person when the graph knows a few of their films."""
    title_words = {w.folded for w in words_of(title or "")}
    inner = found[span.first : span.last + 1]
    if len(inner) > 1 and inner[0].folded in ARTICLES - title_words:
        inner = inner[1:]
    ordinary = len(inner) == 1 and inner[0].folded in STOPWORDS  # "it", "up"
    known = popularity >= KNOWN and not ordinary
    if all_lower(found) or all(w.capital for w in found):  # capitals tell nothing
        return "strong" if known else "weak"
    if any(w.capital and not w.sentence_start for w in inner):
        before = found[span.first - 1] if span.first > 0 else None
        after = found[span.last + 1] if span.last + 1 < len(found) else None
        longer = any(_name_word(w) for w in (before, after))
        return "weak" if longer and not known else "strong"  # "Cup" in "the World Cup"
    opens = inner[0].capital and inner[0].sentence_start  # "Jaws was great."
    phrase_known = title is None or popularity >= WELL_KNOWN  # several words, no capital
    return "strong" if known and (opens or (len(inner) > 1 and phrase_known)) else "weak"


def _name_word(word: Word | None) -> bool:
    """Whether a neighbouring word may continue a name: a capitalized word inside a sentence,
    of more than one letter ("Motor" in "the Ford Motor Company", not the "I" of "by Nolan I
    haven't seen")."""
    return word is not None and word.capital and not word.sentence_start and len(word.folded) > 1


def _longest_first[M: (MovieMention, PersonMention)](
    mentions: list[M], found: list[Word]
) -> list[M]:
    """Mentions that do not overlap a longer (then better) one, in the order of the text."""

    def place(m: MovieMention | PersonMention) -> tuple[int, int]:
        first = next(i for i, w in enumerate(found) if w.start == m.start)
        last = next(i for i, w in enumerate(found) if w.end == m.end)
        return first, last

    def size(m: MovieMention | PersonMention) -> int:
        first, last = place(m)
        return last - first + 1

    kept: list[M] = []
    for mention in sorted(mentions, key=lambda m: (-size(m), -m.best.score)):
        first, last = place(mention)
        if all(last < place(k)[0] or first > place(k)[1] for k in kept):
            kept.append(mention)
    return sorted(kept, key=lambda m: m.start)
