"""Why a movie is recommended, in words a person understands: 'because you liked Heat (1995) and
Collateral (2004); Crime; the 1990s; with Al Pacino'. `reason` is the whole of it (the UI, MCP
clients, the grounding check); `brief` leaves out what the result's message says of every pick
(the movie they are like, the genres, years and popularity asked for): what the model reads of a
row, as every word it reads is prefill time before the answer's first."""

from __future__ import annotations

from semantic_layer.recommend.constraints import Constraints
from semantic_layer.recommend.ranking import Pick

ROLE_WORDS = {"DIRECTED": "directed by", "ACTED_IN": "with"}


def reason(pick: Pick, constraints: Constraints, roles: dict[str, str]) -> str:
    """The pick's reason; `roles`: each person the user named -> their role in this movie."""
    return _join(_parts(pick, constraints, roles, brief=False))


def brief(pick: Pick, constraints: Constraints, roles: dict[str, str]) -> str:
    """The pick's reason less what the message says of every pick: 'liked by 42 viewers',
    'rated 4.2/5 by 142 viewers; directed by Tony Scott', 'because you liked Heat (1995) and 31
    more', and for a loosened pick its genres or year and what was loosened."""
    return _join(_parts(pick, constraints, roles, brief=True))


def _parts(pick: Pick, constraints: Constraints, roles: dict[str, str], brief: bool) -> list[str]:
    movie = pick.movie
    parts = [_basis(pick, brief)]
    # a pick that met every constraint has every genre and the years asked for, as the
    # message says; a loosened one says which it has
    if constraints.genres and (pick.loosened or not brief):
        parts.append(", ".join(g for g in constraints.genres if g in (movie.get("genres") or ())))
    if years := constraints.years_label():
        if pick.loosened:
            parts.append(str(movie.get("year")))
        elif not brief:
            parts.append(years)
    for name, role in roles.items():  # the message says "with"; the row says which role
        parts.append(f"{ROLE_WORDS.get(role, 'with')} {name}")
    if pick.loosened:
        parts.append(f"loosened: {pick.loosened}")
    elif not brief:  # the message says the popularity asked for
        if constraints.popularity == "hidden_gems":
            parts.append(f"a hidden gem ({movie.get('ratingCount')} ratings)")
        elif constraints.popularity == "well_known":
            parts.append(f"well known ({movie.get('ratingCount')} ratings)")
    return parts


def _join(parts: list[str]) -> str:
    return "; ".join(p for p in parts if p)


def _basis(pick: Pick, brief: bool) -> str:
    movie = pick.movie
    if pick.source == "like":
        if pick.support is not None and len(pick.because) == 1:
            if brief:  # the message names the one movie they are like
                return f"liked by {pick.support} viewers"
            return f"liked by {pick.support} viewers who liked {pick.because[0]}"
        like = f"like {_titles(pick.because, pick.seeds)}"
        return like if brief else f"{like}: viewers who liked them liked it too"
    if pick.source == "taste":  # the brief names the first of the movies behind it
        because = pick.because[:1] if brief else pick.because
        return f"because you liked {_titles(because, pick.seeds)}"
    average = "" if brief else " on average"
    return f"rated {movie['ratingAvg']:.1f}/5{average} by {movie['ratingCount']} viewers"


def _titles(titles: list[str], total: int) -> str:
    if total > len(titles):
        return f"{', '.join(titles)} and {total - len(titles)} more"
    if len(titles) > 1:
        return f"{', '.join(titles[:-1])} and {titles[-1]}"
    return titles[0] if titles else "movies you rated"
