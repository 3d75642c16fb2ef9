"""The semantic layer's exceptions: one root, each with a sentence that says what to do."""


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
