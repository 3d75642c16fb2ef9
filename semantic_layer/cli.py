"""Semantic-layer commands: `movieagent stats`."""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from semantic_layer.errors import SemanticLayerError
from semantic_layer.graph import connect
from semantic_layer.graph_stats import graph_stats


def stats_command(
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Node counts per label and relationship counts per type."""
    try:
        with connect() as graph:
            stats = graph_stats(graph)
            where = graph.describe()
    except SemanticLayerError as e:
        Console(stderr=True).print(f"[red]error:[/red] {e}")
        raise typer.Exit(1) from e
    if as_json:
        typer.echo(json.dumps(stats, indent=2))
        return
    table = Table(title=f"Graph: {where}")
    table.add_column("kind")
    table.add_column("name")
    table.add_column("count", justify="right")
    for label, count in stats["nodes"].items():
        table.add_row("node", label, f"{count:,}")
    for rel, count in stats["relationships"].items():
        table.add_row("relationship", rel, f"{count:,}")
    Console().print(table)


def register(app: typer.Typer) -> None:
    app.command("stats")(stats_command)
