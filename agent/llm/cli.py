"""`movieagent llm serve`: the local model as an OpenAI-compatible server for any client.

The same server the app starts for itself (`agent.llm.llama_server`: llama-cpp-python's), in
the foreground: the model, threads and context the app would use (`MOVIEAGENT_LLAMACPP_*`), on
loopback unless `--host` says otherwise. Point the app at it with
`MOVIEAGENT_LLM=openai+http://127.0.0.1:8000/v1?grammar=json_object`, or any OpenAI client.
Imports stay inside the command, so `movieagent --help` does not load the server's libraries.
"""

from __future__ import annotations

from typing import Annotated, Any

import typer

llm_app = typer.Typer(help="The local model.", no_args_is_help=True)


@llm_app.command("serve")
def serve_command(
    model: Annotated[
        str | None,
        typer.Option(
            "--model",
            help="A GGUF file (default: MOVIEAGENT_LLAMACPP_MODEL, else "
            "Qwen2.5-1.5B-Instruct from the hub).",
        ),
    ] = None,
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    threads: Annotated[
        int | None, typer.Option(min=1, help="CPU threads (default: the cores available).")
    ] = None,
    context: Annotated[
        int | None, typer.Option(min=256, help="Context window in tokens (default 8192).")
    ] = None,
    draft: Annotated[
        int,
        typer.Option(
            min=0, help="Speculative decoding by prompt lookup: tokens drafted per step (0: off)."
        ),
    ] = 0,
    api_key: Annotated[
        str | None,
        typer.Option(envvar="MOVIEAGENT_LLM_SERVER_KEY", help="Require this bearer key."),
    ] = None,
) -> None:
    """Serve the local model over the OpenAI API (chat completions, JSON-schema and GBNF
    constrained output, the prompt's KV cache kept between requests)."""
    from rich.console import Console
    from rich.markup import escape

    from agent.errors import AgentError
    from agent.llm.llama_model import choose_model
    from agent.llm.llama_server import main
    from agent.llm.llama_threads import available_cores
    from agent.llm.llamacpp import CONTEXT_TOKENS, server_options
    from agent.settings import AgentSettings

    err = Console(stderr=True, highlight=False, soft_wrap=True)
    try:
        settings = AgentSettings.from_env()
        choice = choose_model(model or settings.llamacpp_model)
    except AgentError as e:
        err.print(f"[red]error:[/red] {escape(str(e))}")
        raise typer.Exit(1) from e
    if choice.warning:
        err.print(f"[yellow]note:[/yellow] {escape(choice.warning)}")
    extra: dict[str, Any] = {
        "draft_model": "prompt-lookup-decoding",
        "draft_model_num_pred_tokens": draft,
    }
    options = server_options(
        choice.path,
        n_ctx=context or settings.llamacpp_context or CONTEXT_TOKENS,
        n_threads=threads or settings.llamacpp_threads or available_cores(),
        host=host,
        port=port,
        api_key=api_key,
        **(extra if draft else {}),
    )
    argv = [f"--{name}={value}" for name, value in options.items() if value is not None]
    err.print(f"Serving {choice.source} at http://{host}:{port}/v1 (Ctrl-C stops it).")
    raise typer.Exit(main(argv))


def register(app: typer.Typer) -> None:
    app.add_typer(llm_app, name="llm")
