"""Recommender: movies like the ones named, inside the constraints asked, in the user's taste.

Every argument is optional and they combine. Names resolve through `semantic_layer.resolve`
(a title films share is its best-known film, the others named in the basis, or comes back as
candidates when none stands out). The ranking and the constraints are in
`semantic_layer.recommend`; when fewer than half the movies asked for satisfy the constraints,
they are loosened in a stated order and the message says which and how. Personal scores and
the best-rated pool come from the neighbourhoods in memory once they are loaded
(`semantic_layer.recommend.neighbour_cache`: warm them at start), else from the queries alone;
the results are the same.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Literal, Self, get_origin

from pydantic import BaseModel, Field, model_validator

from semantic_layer.linking.arguments import YEAR_FROM, YEAR_TO, entity
from semantic_layer.recommend.constraints import MAX_GENRES, Bands, Constraints
from semantic_layer.recommend.neighbour_cache import SHARED, NeighbourCache
from semantic_layer.recommend.ranking import Pick, Request, rank
from semantic_layer.recommend.reasons import brief, reason
from semantic_layer.recommend.taste import Taste, taste_of_user
from semantic_layer.resolve import resolve_movie, resolve_person
from semantic_layer.session import Session
from semantic_layer.tools.contract import Tool
from semantic_layer.tools.genre import Genre
from semantic_layer.tools.payloads import Basis, Recommendation, Recommendations
from semantic_layer.tools.result import ToolResult
from semantic_layer.tools.strict import StrictInput
from semantic_layer.tools.trace import TracedGraph

LIMIT, MAX_LIMIT = 10, 25
MAX_NAMES = 5  # movies or people named in one request
_SINGULAR = {"movie": "movies", "genre": "genres"}  # what small models send for one


class RecommenderInput(StrictInput):
    movies: list[str] = Field(
        json_schema_extra=entity("movie"),
        default_factory=list,
        max_length=MAX_NAMES,
        description="Movies the user wants something like ('like Heat and Collateral'), or the "
        "one a follow-up's 'it' means. Never made up.",
    )
    genres: list[Genre] = Field(
        json_schema_extra=entity("genre"),
        default_factory=list,
        max_length=MAX_GENRES,
        description="Kinds of movie asked for ('a funny action movie' = Comedy, Action); "
        "every result has all of them.",
    )
    exclude_genres: list[Genre] = Field(
        json_schema_extra=entity("genre"),
        default_factory=list,
        max_length=MAX_GENRES,
        description="Kinds the user does not want ('no horror').",
    )
    people: list[str] = Field(
        json_schema_extra=entity("person"),
        default_factory=list,
        max_length=MAX_NAMES,
        description="Actors or directors whose films the user wants to watch ('with Bill "
        "Murray', 'a film by Ang Lee'); every result features each of them.",
    )
    year_from: int | None = Field(
        json_schema_extra=entity(YEAR_FROM),
        default=None,
        ge=1870,
        le=2100,
        description="First release year ('90s' = 1990, 'after 2005' = 2005); left out when "
        "the user sets no earliest year ('before 1980').",
    )
    year_to: int | None = Field(
        json_schema_extra=entity(YEAR_TO),
        default=None,
        ge=1870,
        le=2100,
        description="Last release year ('90s' = 1999, 'before 1980' = 1980); left out when "
        "the user sets no latest year ('after 2005').",
    )
    popularity: Literal["any", "well_known", "hidden_gems"] = Field(
        default="any",
        description="'well_known' for crowd-pleasers, 'hidden_gems' for lesser known.",
    )
    limit: int = Field(default=LIMIT, ge=1, le=MAX_LIMIT, description="How many movies.")

    @model_validator(mode="before")
    @classmethod
    def _lenient(cls, data: Any) -> Any:
        """One name or genre where a list is expected, and `movie`/`genre` for one, as small
        models send them."""
        if not isinstance(data, dict):
            return data
        data = dict(data)
        for one, many in _SINGULAR.items():
            if one in data and many not in data:
                value = data.pop(one)
                data[many] = [] if value is None else value
        for name in _list_fields(cls):
            if isinstance(data.get(name), str):
                data[name] = [data[name]]
            elif data.get(name) is None and name in data:
                data[name] = []
        return data

    @model_validator(mode="after")
    def _consistent(self) -> Self:
        if (
            self.year_from is not None
            and self.year_to is not None
            and self.year_from > self.year_to
        ):
            raise ValueError(f"year_from {self.year_from} is after year_to {self.year_to}")
        if both := set(self.genres) & set(self.exclude_genres):
            raise ValueError(
                f"{', '.join(sorted(both))} is both asked for and excluded; keep one of the two"
            )
        return self


def _list_fields(model: type[BaseModel]) -> list[str]:
    return [n for n, f in model.model_fields.items() if get_origin(f.annotation) is list]


class Recommender(Tool[RecommenderInput]):
    name = "recommender"
    description = (
        "Recommend movies to watch: like movies named, of genres (and not of excluded ones), "
        "with or by people, from a year range, well known or hidden gems; all optional and "
        "combined. Results are in the user's taste (from their ratings), never a movie they "
        "rated; each says why."
    )
    input_model = RecommenderInput

    def __init__(self, neighbours: NeighbourCache | None = SHARED) -> None:
        self.neighbours = neighbours  # None: personal scores from the queries alone

    def execute(self, args: RecommenderInput, graph: TracedGraph, session: Session) -> ToolResult:
        typed = list(dict.fromkeys(args.movies))
        movies = [resolve_movie(graph, text) for text in typed]
        people = [resolve_person(graph, text).name for text in dict.fromkeys(args.people)]
        constraints = Constraints(
            genres=tuple(g.value for g in dict.fromkeys(args.genres)),
            exclude_genres=tuple(g.value for g in dict.fromkeys(args.exclude_genres)),
            people=tuple(dict.fromkeys(people)),
            year_from=args.year_from,
            year_to=args.year_to,
            popularity=args.popularity,
        )
        taste = taste_of_user(graph, session.user_id) if not session.is_guest else Taste()
        basis = Basis(
            movie=movies[0].label if movies else None,
            movie_id=movies[0].movie_id if movies else None,
            movies=[m.label for m in movies] if len(movies) > 1 else [],
            note="; ".join(f"took {t!r} to mean {m.label}" for t, m in
                           zip(typed, movies, strict=True) if m.how == "fuzzy") or None,
            genres=list(constraints.genres),
            exclude_genres=list(constraints.exclude_genres),
            people=list(constraints.people),
            years=constraints.years_label() or None,
            popularity=None if args.popularity == "any" else args.popularity,
            user="own ratings" if taste.liked else None,
            same_title=list(movies[0].others) if movies else [],
        )  # fmt: skip
        if not movies and not taste.known and not constraints.narrows:
            return _result(
                self.name,
                "The user has not rated any movie yet: ask for a movie they liked, a genre, a "
                "person or years, or have them rate a movie first.",
                basis,
                [],
            )
        roles: dict[int, dict[str, str]] = {}
        if people:
            rows = graph.read("recommend/people_movies", {"people": list(constraints.people)})
            roles = {r["movieId"]: dict(r["roles"]) for r in rows}
        bands = Bands.for_audience(  # the bands matter only when a popularity is asked for
            graph.read("recommend/audience")[0]["users"] if args.popularity != "any" else 0
        )
        request = Request(
            constraints=constraints,
            user_id=session.user_id,
            limit=args.limit,
            movies=[{"movieId": m.movie_id, "label": m.label} for m in movies],
            taste=taste,
            allowed=sorted(roles) if people else None,
            neighbours=self.neighbours.get(graph.graph) if self.neighbours is not None else None,
        )
        picks = rank(graph, request, bands, set())
        loosened = ""
        enough = (args.limit + 1) // 2
        if len(picks) < enough:
            for looser, note in constraints.loosenings():
                more = rank(
                    graph,
                    replace(request, constraints=looser, limit=args.limit - len(picks),
                            filling=True),
                    bands,
                    {p.movie["movieId"] for p in picks},
                )  # fmt: skip
                for pick in more:
                    pick.loosened = note
                picks += more
                loosened = note if more else loosened  # each step is looser than the last
                if len(picks) >= enough:
                    break
        basis = basis.model_copy(update={"loosened": loosened or None})
        recs = [_card(p, constraints, roles.get(p.movie["movieId"], {})) for p in picks]
        return _result(self.name, _message(recs, picks, constraints, basis, args), basis, recs)


def _message(
    recs: list[Recommendation],
    picks: list[Pick],
    constraints: Constraints,
    basis: Basis,
    args: RecommenderInput,
) -> str:
    asked = constraints.describe()
    within = f" ({asked})" if asked else ""
    if not recs:
        return (
            f"No movie the user has not rated fits{within}, even loosened as far as allowed "
            "(people and excluded genres never are): ask for fewer constraints."
            if constraints.narrows
            else "No recommendations: too few viewers liked those movies together with others "
            "(or the user has rated them all)."
        )
    sources = {p.source for p in picks}
    if "like" in sources:
        ranked = ", ranked by the user's own ratings" if basis.user else ""
        like = ", ".join(basis.movies or [basis.movie or ""])
        message = f"{len(recs)} movies like {like}{ranked}{within}."
    elif "taste" in sources:
        # not "picked from the user's 4+ ratings": the model read that as movies the user rated
        message = f"{len(recs)} movies the user has not rated, in their taste{within}."
    else:
        message = f"The {len(recs)} best-rated movies{within}."
    if "rating" in sources and sources != {"rating"}:
        message += " The last are the best rated that fit, as few came from that alone."
    if basis.loosened:
        strict = sum(1 for p in picks if not p.loosened)
        message += (
            f" Only {strict} {'movie fits' if strict == 1 else 'movies fit'} every constraint, "
            "so they were loosened: "
            f"{basis.loosened}; each loosened pick says so."
        )
    elif len(recs) < args.limit:
        message += f" Only {len(recs)} fit; nothing was loosened."
    return message


def _card(pick: Pick, constraints: Constraints, roles: dict[str, str]) -> Recommendation:
    row = pick.movie
    avg = row.get("ratingAvg")
    return Recommendation(
        movie_id=row["movieId"],
        title=row["title"],
        year=row["year"],
        genres=sorted(row.get("genres") or []),
        rating_avg=round(avg, 2) if avg is not None else None,
        rating_count=row.get("ratingCount"),
        why=reason(pick, constraints, roles),
    ).briefly(brief(pick, constraints, roles))


def _result(tool: str, message: str, basis: Basis, recs: list[Recommendation]) -> ToolResult:
    return ToolResult(
        tool=tool,
        kind="recommendations",
        message=message,
        data=Recommendations(basis=basis, recommendations=recs),
    )
