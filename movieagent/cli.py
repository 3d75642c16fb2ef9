"""The `movieagent` command: each layer contributes its own subcommands from its `cli.py`.

Those modules import only what `--help` needs; a command imports its layer when it runs, so
`movieagent --help` answers at once and `movieagent tool` pays only for the semantic layer.
"""

from __future__ import annotations

import typer

from agent.cli import register as register_agent
from agent.llm.cli import register as register_llm
from data_import.cli import register as register_import
from evaluation.cli import register as register_eval
from mcp_server.cli import register as register_mcp
from movieagent.stop_signals import stop_like_ctrl_c
from semantic_layer.cli import register as register_semantic_layer
from ui.cli import register as register_ui

app = typer.Typer(
    name="movieagent",
    help="A movie-recommendation chat agent over a MovieLens graph.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

register_import(app)
register_semantic_layer(app)
register_agent(app)
register_llm(app)
register_eval(app)
register_ui(app)
register_mcp(app)


def main() -> None:
    """The `movieagent` program: SIGTERM stops any command the way Ctrl-C does."""
    stop_like_ctrl_c()
    app()


if __name__ == "__main__":
    main()
