"""Why a movie is recommended, in words a person understands: 'because you liked Heat (1995) and
Collateral (2004); Crime; the 1990s; with Al Pacino'."""

from __future__ import annotations

from semantic_layer.recommend.constraints import Constraints
from semantic_layer.recommend.ranking import Pick

ROLE_WORDS = {"DIRECTED": "directed by", "ACTED_IN": "with"}


def reason(pick: Pick, constraints: Constraints, roles: dict[str, str]) -> str:
    """The pick's reason; `roles`: each person the user named -> their role in this movie."""
    parts = [_basis(pick)]
    movie = pick.movie
    if constraints.genres:
        parts.append(", ".join(g for g in constraints.genres if g in (movie.get("genres") or ())))
    if years := constraints.years_label():
        parts.append(str(movie.get("year")) if pick.loosened else years)
    for name, role in roles.items():
        parts.append(f"{ROLE_WORDS.get(role, 'with')} {name}")
    if pick.loosened:
        pass
    elif constraints.popularity == "hidden_gems":
        parts.append(f"a hidden gem ({movie.get('ratingCount')} ratings)")
    elif constraints.popularity == "well_known":
        parts.append(f"well known ({movie.get('ratingCount')} ratings)")
    if pick.loosened:
        parts.append(f"loosened: {pick.loosened}")
    return "; ".join(p for p in parts if p)


def _basis(pick: Pick) -> str:
    movie = pick.movie
    if pick.source == "like":
        if pick.support is not None and len(pick.because) == 1:
            return f"liked by {pick.support} viewers who liked {pick.because[0]}"
        return f"like {_titles(pick.because, pick.seeds)}: viewers who liked them liked it too"
    if pick.source == "taste":
        return f"because you liked {_titles(pick.because, pick.seeds)}"
    return f"rated {movie['ratingAvg']:.1f}/5 on average by {movie['ratingCount']} viewers"


def _titles(titles: list[str], total: int) -> str:
    if total > len(titles):
        return f"{', '.join(titles)} and {total - len(titles)} more"
    if len(titles) > 1:
        return f"{', '.join(titles[:-1])} and {titles[-1]}"
    return titles[0] if titles else "movies you rated"
