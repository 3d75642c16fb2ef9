"""Entity resolution: what the user typed -> exactly one movie or person, or candidates to pick.

Order: exact, then normalized (case, punctuation, articles, a year), then full-text fuzzy.
Several fits raise `AmbiguousEntityError` with the candidates (and years), unless one film of a
shared title is far better known (it is taken, and the others are named); nothing is picked
silently.
"""

from semantic_layer.resolve.candidate import Candidate
from semantic_layer.resolve.movies import MovieRef, movie_candidate, resolve_movie
from semantic_layer.resolve.people import PersonRef, person_candidate, resolve_person
from semantic_layer.resolve.text import clean_input

__all__ = [
    "Candidate",
    "MovieRef",
    "PersonRef",
    "clean_input",
    "movie_candidate",
    "person_candidate",
    "resolve_movie",
    "resolve_person",
]
