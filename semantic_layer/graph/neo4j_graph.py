"""Neo4j 5 through the official driver; reads go through read routing and read transactions."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from semantic_layer.errors import (
    GraphQueryError,
    GraphTimeoutError,
    GraphUnavailableError,
    timeout_sentence,
)
from semantic_layer.graph.base import Graph, Row
from semantic_layer.graph.queries import QueryLibrary
from semantic_layer.settings import GraphSettings


class Neo4jGraph(Graph):
    backend = "neo4j"

    def __init__(self, settings: GraphSettings, queries: QueryLibrary | None = None) -> None:
        super().__init__(queries or QueryLibrary("neo4j"))
        import neo4j

        self._neo4j = neo4j
        self.settings = settings
        self.timeout_ms = settings.query_timeout_ms
        assert settings.neo4j_uri is not None
        self._driver = neo4j.GraphDatabase.driver(
            settings.neo4j_uri,
            auth=(
                settings.neo4j_username,
                settings.neo4j_password.get_secret_value() if settings.neo4j_password else "",
            ),
        )
        try:
            self._driver.verify_connectivity()
        except neo4j.exceptions.AuthError as e:
            self._driver.close()
            raise GraphUnavailableError(
                f"Neo4j at {settings.neo4j_uri} refused the credentials: "
                "check NEO4J_USERNAME and NEO4J_PASSWORD."
            ) from e
        except (neo4j.exceptions.ServiceUnavailable, OSError, ValueError) as e:
            self._driver.close()
            raise GraphUnavailableError(
                f"Cannot reach Neo4j at {settings.neo4j_uri}: start it with "
                "`docker compose up -d neo4j`, or unset NEO4J_URI to use the embedded graph."
            ) from e

    def _run(self, text: str, params: dict[str, Any], *, write: bool) -> list[Row]:
        neo4j = self._neo4j
        routing = neo4j.RoutingControl.WRITE if write else neo4j.RoutingControl.READ
        timeout = self.timeout_ms / 1000 if self.timeout_ms else None
        try:
            records, _, _ = self._driver.execute_query(
                neo4j.Query(text, timeout=timeout),  # the transaction's time limit
                parameters_=params,
                routing_=routing,
                database_=self.settings.neo4j_database,
            )
        except neo4j.exceptions.ServiceUnavailable as e:
            raise GraphUnavailableError(
                f"Lost the connection to Neo4j at {self.settings.neo4j_uri}: is it still running?"
            ) from e
        except neo4j.exceptions.Neo4jError as e:
            if "TransactionTimedOut" in (e.code or "") and self.timeout_ms:
                raise GraphTimeoutError(timeout_sentence(self.timeout_ms)) from e
            raise GraphQueryError(f"Neo4j rejected the query: {e.message}") from e
        return [record.data() for record in records]

    def wait_for_indexes(
        self, timeout_s: float, on_progress: Callable[[int, int], None] | None = None
    ) -> list[str]:
        """Wait (`db.awaitIndexes`) until every index is online; returns why not, empty when all
        are. Neo4j populates new indexes in the background, as FalkorDB does."""
        try:
            self.read("import/await_indexes", {"timeoutSeconds": max(1, round(timeout_s))})
        except GraphQueryError as e:
            return [str(e)]
        if on_progress:
            on_progress(1, 1)
        return []

    def fulltext_query(self, words: list[str], *, any_word: bool, fuzzy: bool = True) -> str:
        """Lucene: `word~` is a fuzzy match; words are or-ed by default."""
        parts = [f"{w}~" if fuzzy and len(w) >= 4 and not w.isdigit() else w for w in words]
        return (" OR " if any_word else " AND ").join(parts)

    def describe(self) -> str:
        return self.settings.describe()

    def close(self) -> None:
        self._driver.close()
