"""`movieagent ui`: start the Streamlit chat app."""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated

import typer

from ui.access import has_auth_section, login_problem, secrets_files
from ui.supervise import run_supervised

APP = Path(__file__).resolve().parent / "app.py"
# The app shows the user's graph and ratings: by default only this machine can reach it. Listening
# on all interfaces also makes a headless Streamlit ask a public service for the external IP.
LOCAL_ADDRESS = "127.0.0.1"


def streamlit_command(
    port: int | None = None,
    address: str | None = None,
    headless: bool = False,
    env: Mapping[str, str] | None = None,
) -> list[str]:
    """The `streamlit run` command line. Unset options are left to Streamlit's own settings
    (and its `STREAMLIT_SERVER_*` environment variables, which the Docker image sets); the
    address defaults to loopback unless `STREAMLIT_SERVER_ADDRESS` says otherwise."""
    env = os.environ if env is None else env
    if address is None and not env.get("STREAMLIT_SERVER_ADDRESS"):
        address = LOCAL_ADDRESS
    command = [
        sys.executable, "-m", "streamlit", "run", str(APP),
        "--server.fileWatcherType", "none",
        "--browser.gatherUsageStats", "false",
        "--client.toolbarMode", "minimal",
    ]  # fmt: skip
    if headless:
        command += ["--server.headless", "true"]
    if port is not None:
        command += ["--server.port", str(port)]
    if address is not None:
        command += ["--server.address", address]
    return command


def ui_command(
    port: Annotated[int | None, typer.Option("--port", help="Port (default 8501).")] = None,
    address: Annotated[
        str | None,
        typer.Option(
            "--address",
            help="Address to listen on (default: 127.0.0.1, or $STREAMLIT_SERVER_ADDRESS; "
            "0.0.0.0 for all interfaces).",
        ),
    ] = None,
    headless: Annotated[
        bool, typer.Option("--headless", help="Do not open a browser window.")
    ] = False,
) -> None:
    """Open the chat app in the browser (Ctrl-C or SIGTERM stops it and the app's server)."""
    from rich.console import Console
    from rich.markup import escape

    listen = address or os.environ.get("STREAMLIT_SERVER_ADDRESS") or LOCAL_ADDRESS
    problem = login_problem(listen, has_auth_section(secrets_files()))
    if problem:  # the page refuses too; this says it before anything starts
        Console(stderr=True).print(f"[red]error:[/red] {escape(problem)}")
        raise typer.Exit(2)
    raise typer.Exit(run_supervised(streamlit_command(port, address, headless)))


def register(app: typer.Typer) -> None:
    app.command("ui")(ui_command)
