"""Whether the movies and people in a tool call come from the conversation, not the model.

A small model fills every argument it is offered: asked "What has Steven Spielberg directed?",
it may call `movies_together` with a second person nobody named, or pass a movie to the
recommender when the user asked for a genre. An argument that names a movie or a person (by
its name: `movie`, `entity`, `director`, `first_person`, ...) must therefore share a word with
what the user and the assistant said (the question, the history, the entities of the last
turn), letters compared loosely so that misspellings and their corrections still match. A
call that fails the check goes back to the model once as a correction; the same call again is
run (the user may have named the thing in another language than the graph's).

A genre beside a movie ("something like Heat" becoming Heat *and* Action) narrows the answer to
what nobody asked for; it is kept only when the user's words name it (`genre_mentioned`: word
stems in English, French, German, Spanish, Chinese and Japanese). A genre alone is the model's
reading of the request ("something scary") and is always kept.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from difflib import SequenceMatcher
from typing import Any

from semantic_layer.tools.genre import Genre

_NAMING = re.compile(r"(?:\w+_)?(?:movie|entity|person|director|actor|title)")
_WORD = re.compile(r"\w+")
_IGNORED = frozenset({"the", "a", "an", "of", "and", "le", "la", "les", "l", "der", "die", "das"})
SIMILAR = 0.75  # two words this alike count as the same (Inceptoin, Inception)


def ungrounded_arguments(arguments: Mapping[str, Any], said: Iterable[str]) -> dict[str, str]:
    """The naming arguments whose value shares no word with anything in `said`."""
    words = {w for text in said for w in _words(text)}
    return {
        name: value
        for name, value in arguments.items()
        if isinstance(value, str) and _NAMING.fullmatch(name) and not _grounded(value, words)
    }


def about_movies(text: str) -> bool:
    """Whether `text` asks about movies in so many words (movie, film, watch, recommend, in
    English, French, German, Spanish, Italian, Portuguese, Chinese and Japanese, or a genre's
    English name): then it is not small talk."""
    words = _words(text)
    return any(w.startswith(_MOVIE_STEMS) for w in words) or any(cue in text for cue in _MOVIE_CUES)


# words for movies and asking for them, then the genres' English names ("a western")
# fmt: off
_MOVIE_STEMS = (
    "movie", "film", "flick", "cine", "kino", "pelicul", "watch", "recommend", "recommand",
    "recomend", "recomiend", "empfehl", "empfiehl", "suggest", "conseill", "consigli",
    "comed", "horror", "thriller", "western", "documentar", "musical", "romanc", "romantic",
    "fantas", "noir", "animat", "adventur", "myster", "drama", "crime",
)
# fmt: on
_MOVIE_CUES = ("电影", "推荐", "映画", "おすすめ")


def genre_mentioned(genre: str, said: Iterable[str]) -> bool:
    """Whether the user's words name `genre` (a MovieLens genre) in one of the known ways."""
    stems = _GENRE_STEMS.get(genre.casefold(), (genre.casefold()[:4],))
    texts = [" ".join(_words(text)) for text in said]
    other = _NOT_GENRE_STEMS.get(genre.casefold(), ())
    words = {w for text in texts for w in text.split() if not w.startswith(other)}
    return any(
        any(w.startswith(stem) for w in words) if stem.isascii() else any(stem in t for t in texts)
        for stem in stems
    )


def genre_named(question: str, leave_out: Iterable[str] = ()) -> str | None:
    """The one MovieLens genre the question's words name ("a horror movie tonight",
    "una buena comedia", "アニメ映画"), or None when they name none or several. Words of
    `leave_out` (the titles in the call: "Scarface", "Star Wars") do not count."""
    skip = {w for text in leave_out for w in _words(text)}
    text = " ".join(w for w in _words(question) if w not in skip)
    named = [g for g in _GENRE_STEMS if genre_mentioned(g, [text])]
    return _GENRE_NAMES.get(named[0]) if len(named) == 1 else None


# fmt: off
_GENRE_STEMS: dict[str, tuple[str, ...]] = {
    "action": ("action", "accion", "动作", "アクション"),
    "adventure": ("advent", "aventur", "abenteuer", "冒险", "冒険"),
    "animation": ("anim", "cartoon", "pixar", "trickfilm", "动画", "アニメ"),
    "children": ("child", "kid", "famil", "enfant", "kinder", "niño", "nino", "儿童", "子供"),
    "comedy": ("comed", "commed", "comic", "funn", "laugh", "comedi", "komod", "喜剧", "コメディ"),
    "crime": ("crim", "gangster", "mafia", "krimi", "policier", "犯罪"),
    "documentary": ("docu", "dokument", "纪录", "ドキュメンタリー"),
    "drama": ("drama", "dramat", "剧情", "ドラマ"),
    "fantasy": ("fantas", "奇幻", "ファンタジー"),
    "film-noir": ("noir",),
    "horror": ("horr", "scar", "terror", "epouvant", "gruse", "恐怖", "ホラー"),
    "imax": ("imax",),
    "musical": ("music", "musik", "musica", "歌舞", "ミュージカル"),
    "mystery": ("myster", "whodunit", "悬疑", "ミステリー"),
    "romance": ("roman", "date", "amour", "liebe", "爱情", "恋愛", "ロマンス"),
    "sci-fi": ("sci", "science", "space", "fantascien", "ficcion", "ficcao", "科幻", "sf"),
    "thriller": ("thrill", "suspens", "惊悚", "スリラー"),
    "war": ("war", "guerre", "krieg", "guerra", "战争", "戦争"),
    "western": ("western", "cowboy", "西部"),
}
# fmt: on
# words that begin like one genre and name another: "fantascienza" is science fiction, not fantasy
_NOT_GENRE_STEMS: dict[str, tuple[str, ...]] = {"fantasy": ("fantascien",)}
_GENRE_NAMES = {genre.value.casefold(): genre.value for genre in Genre}


def _grounded(value: str, words: set[str]) -> bool:
    own = [w for w in _words(value) if not w.isdigit() and w not in _IGNORED]
    if not own:
        return True  # nothing to check ("1984", "The")
    return any(w in words or _near(w, words) for w in own)


def _near(word: str, words: set[str]) -> bool:
    return len(word) > 3 and any(
        abs(len(w) - len(word)) <= 2 and SequenceMatcher(None, w, word).ratio() >= SIMILAR
        for w in words
    )


def _words(text: str) -> list[str]:
    plain = unicodedata.normalize("NFKD", text.casefold())
    plain = "".join(c for c in plain if not unicodedata.combining(c))
    return _WORD.findall(plain)
