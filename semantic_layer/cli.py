"""Semantic-layer commands: `movieagent stats`, `movieagent tools`, `movieagent tool NAME`."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape

# The graph, the tools and their libraries are imported when a command runs, so that
# `movieagent --help` (and every other command) does not pay for them.

err = Console(stderr=True)


def stats_command(
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Node counts per label and relationship counts per type."""
    from rich.table import Table

    from semantic_layer.errors import SemanticLayerError
    from semantic_layer.graph import connect
    from semantic_layer.graph_stats import IMPORT_HINT, graph_stats

    try:
        with connect() as graph:
            stats = graph_stats(graph)
            where = graph.describe()
    except SemanticLayerError as e:
        err.print(f"[red]error:[/red] {e}")
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
    if not stats["nodes"]:
        err.print(escape(IMPORT_HINT.format(graph=where)))


@contextmanager
def _tools(
    user_id: int | None, require_data: bool = False, admin: bool = False
) -> Iterator[tuple[dict[str, Any], Any]]:
    from semantic_layer.errors import SemanticLayerError, UserIdError
    from semantic_layer.graph import connect
    from semantic_layer.graph_stats import graph_problem
    from semantic_layer.tools import ToolContext, build_tools
    from semantic_layer.user_policy import session_for

    try:
        with connect() as graph:
            problem = graph_problem(graph) if require_data else None
            if problem:
                err.print(f"[red]error:[/red] {escape(problem)}")
                raise typer.Exit(1)
            try:
                session = session_for(graph, user_id, admin=admin)
            except UserIdError as e:
                err.print(f"[red]error:[/red] {escape(str(e))}")
                raise typer.Exit(2) from e
            yield {t.name: t for t in build_tools()}, ToolContext(graph, session)
    except SemanticLayerError as e:
        err.print(f"[red]error:[/red] {e}")
        raise typer.Exit(1) from e


def tools_command(
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON with each schema.")] = False,
) -> None:
    """Every tool the agent can call, with its description and argument schema."""
    from rich.table import Table

    with _tools(None) as (tools, _):
        listing = [
            {
                "name": t.name,
                "description": t.description,
                "declared_in": str(t.source) if t.source else None,
                "mode": t.mode if t.source else "built-in",
                "schema": t.input_schema,
            }
            for t in tools.values()
        ]
    if as_json:
        typer.echo(json.dumps(listing, indent=2, ensure_ascii=False))
        return
    table = Table(title="Tools")
    table.add_column("name")
    table.add_column("arguments")
    table.add_column("description")
    for tool in listing:
        props = tool["schema"].get("properties", {})
        required = set(tool["schema"].get("required", []))
        args = ", ".join(f"{n}{'' if n in required else '?'}" for n in props)
        table.add_row(tool["name"], args, tool["description"])
    Console().print(table)


def tool_command(
    name: Annotated[str, typer.Argument(help="The tool to run (see `movieagent tools`).")],
    args: Annotated[str, typer.Option("--args", help="Arguments as a JSON object.")] = "{}",
    user_id: Annotated[
        int | None,
        typer.Option(
            "--user-id",
            help="Run as this user (default: a guest); a MovieLens user is a read-only demo.",
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the whole result.")] = False,
    as_admin: Annotated[
        bool,
        typer.Option(
            "--as-admin", help="Allow writing as a MovieLens user or another person's app user."
        ),
    ] = False,
) -> None:
    """Run one tool directly, without an LLM: the way to check a new Cypher tool."""
    from semantic_layer.errors import ToolArgumentsError
    from semantic_layer.text_safety import clean_value

    try:
        arguments = json.loads(args)
    except json.JSONDecodeError as e:
        err.print(f"[red]error:[/red] --args is not valid JSON ({e.msg} at column {e.colno}).")
        raise typer.Exit(1) from e
    if not isinstance(arguments, dict):
        err.print('[red]error:[/red] --args must be a JSON object, like \'{"entity": "Heat"}\'.')
        raise typer.Exit(1)
    arguments = clean_value(arguments)
    with _tools(user_id, require_data=True, admin=as_admin) as (tools, context):
        tool = tools.get(name)
        if tool is None:
            err.print(f"[red]error:[/red] no tool {name!r}; the tools are: {', '.join(tools)}.")
            raise typer.Exit(1)
        try:
            result = tool.run(arguments, context)
        except ToolArgumentsError as e:
            err.print(f"[red]error:[/red] invalid arguments for {name}: {e}")
            raise typer.Exit(1) from e
    if as_json:
        typer.echo(json.dumps(result.model_dump(mode="json"), indent=2, ensure_ascii=False))
    else:
        _print_result(result)
    if not result.ok:
        raise typer.Exit(1)


def _print_result(result: Any) -> None:
    out = Console()
    style = "green" if result.ok else "yellow"
    out.print(f"[{style}]{result.message}[/{style}]")
    for candidate in result.candidates:
        out.print(f"  - {candidate.label}")
    if result.data is not None:
        out.print_json(json.dumps(result.plain_data(), ensure_ascii=False, default=str))
    for q in result.queries:
        err.print(f"[dim]{q.mode} {q.name}: {q.rows} rows, {q.ms:.1f} ms[/dim]")


def register(app: typer.Typer) -> None:
    app.command("stats")(stats_command)
    app.command("tools")(tools_command)
    app.command("tool")(tool_command)
