"""The semantic layer's exceptions: one root, each with a sentence that says what to do."""

from typing import Any


class SemanticLayerError(Exception):
    """Root of every error raised by the semantic layer."""


class ConfigurationError(SemanticLayerError):
    """A setting is missing or invalid."""


class GraphUnavailableError(SemanticLayerError):
    """The graph database cannot be reached or started."""


class QueryNotFoundError(SemanticLayerError):
    """No `.cypher` file exists for a query name."""


class GraphQueryError(SemanticLayerError):
    """The database rejected a query."""


class BulkLoadError(GraphQueryError):
    """The database refused to build a graph in bulk, or the build is not the one sent."""


class GraphTimeoutError(GraphQueryError):
    """A query ran longer than the query time limit and was stopped."""


def timeout_sentence(timeout_ms: int) -> str:
    return (
        f"The graph query took longer than {timeout_ms / 1000:g} s and was stopped: ask "
        "something narrower, or raise MOVIEAGENT_QUERY_TIMEOUT_MS (milliseconds)."
    )


class ReadOnlySessionError(SemanticLayerError):
    """A write through a read-only session (a MovieLens demo user): nothing was changed."""


class UserIdError(SemanticLayerError):
    """A user id that this caller may not use (out of range, unallocated, someone else's)."""


class InvalidInputError(SemanticLayerError):
    """What the user typed cannot be looked up (empty, only punctuation, far too long)."""


class EntityNotFoundError(SemanticLayerError):
    """No movie or person in the graph matches what the user typed (`typed`)."""

    def __init__(self, message: str, *, typed: str | None = None) -> None:
        super().__init__(message)
        self.typed = typed


class AmbiguousEntityError(SemanticLayerError):
    """Several movies or people match; the user has to choose one of `candidates`
    (`loose`: guesses at a misspelling, none of them called what was `typed`)."""

    def __init__(
        self, message: str, candidates: list[Any], *, loose: bool = False, typed: str | None = None
    ) -> None:
        super().__init__(message)
        self.candidates = candidates
        self.loose = loose
        self.typed = typed


class ToolDeclarationError(SemanticLayerError):
    """A declared tool's `.cypher` file has a malformed header; the text names file and line."""


class ToolArgumentsError(SemanticLayerError):
    """A tool call's arguments do not fit the tool's input model; the text says what is wrong."""
