"""`movieagent import`: load a MovieLens release into the configured graph."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from data_import.defaults import BULK_THRESHOLD, DEFAULT_URL


def import_command(
    source: Annotated[
        str | None,
        typer.Option(
            help="MovieLens release: a directory, a .zip or a URL. "
            f"Default: $MOVIEAGENT_MOVIELENS, else {DEFAULT_URL}",
        ),
    ] = None,
    enrich: Annotated[
        Path | None,
        typer.Option(
            help="Enriched movie list (movieId,released,title,actors,director,genres,imdbRating) "
            "for people, release dates and IMDb ratings. Default: $MOVIEAGENT_ENRICH.",
        ),
    ] = None,
    batch_size: Annotated[int, typer.Option(min=100, help="Rows per write.")] = 5_000,
    bulk: Annotated[
        bool | None,
        typer.Option(
            "--bulk/--no-bulk",
            help="Rebuild the embedded graph from scratch with FalkorDB's bulk loader (fast; "
            "keeps the users the app created and their ratings, drops anything else). Default: "
            f"into an empty graph, or for releases above {BULK_THRESHOLD:,} ratings. Neo4j always "
            "uses batched MERGE.",
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as JSON.")] = False,
) -> None:
    """Import MovieLens into the graph (idempotent: running it twice changes no count)."""
    from data_import.errors import ImportDataError
    from data_import.importer import ImportOptions, import_release
    from data_import.settings import ImportSettings
    from data_import.source import resolve_release
    from semantic_layer.errors import SemanticLayerError
    from semantic_layer.graph import connect
    from semantic_layer.settings import GraphSettings

    console = Console(stderr=as_json)
    try:
        settings = GraphSettings.from_env()
        defaults = ImportSettings.from_env()
        source = source or defaults.movielens
        enrich = enrich or defaults.enrich
        release = resolve_release(source, settings.data_dir / "cache")
        if enrich is not None and not enrich.is_file():
            raise ImportDataError(f"--enrich {enrich}: no such file.")
        console.print(f"Importing {release} into {settings.describe()}")
        with connect(settings) as graph:
            options = ImportOptions(batch_size=batch_size, show_progress=not as_json, bulk=bulk)
            report = import_release(graph, release, enrich, options)
    except (ImportDataError, SemanticLayerError) as e:
        console.print(f"[red]error:[/red] {e}")
        raise typer.Exit(1) from e
    if as_json:
        typer.echo(json.dumps(report.to_dict(), indent=2))
    else:
        report.print(console)


def register(app: typer.Typer) -> None:
    app.command("import")(import_command)
