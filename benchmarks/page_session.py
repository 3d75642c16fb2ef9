"""A user's session in the real page: `movieagent ui` in a headless Chromium, five questions.

    python -m benchmarks.page_session --llm llamacpp:/path/model.gguf
    python -m benchmarks.page_session --question "Who directed Heat?" --question "Who is in it?"

What the main job must do: the page started as `movieagent ui` starts it, on a copy of
the embedded graph (`MOVIEAGENT_DATA_DIR`, imported beforehand: the ratings the session stores
stay in the copy) with the LLM of `--llm`, answers every question without a crash. Without
`--llm` (as in `make bench`) it says so and exits 0: the model is the user's choice. Each question is typed into the chat
box like a user would; the script waits until the page has finished the turn (Streamlit's
"running" indicator gone, the answer shown), then prints the seconds it took, the tools the
step expanders name and the first words of the answer. Ends non-zero when a question got no
answer, the page showed an exception or the server died. Playwright drives Debian's Chromium
(`/usr/bin/chromium`); nothing is downloaded. A screenshot of the page is written at the end.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from movieagent.stop_signals import stop_like_ctrl_c
from ui.chat import CURSOR
from ui.cli import streamlit_command

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"]
QUESTIONS = (
    "Something like Heat but funnier",
    "Who directed Casino?",
    "Who acts in it?",
    "I loved The Matrix, remember that: 5 stars",
    "What should I watch tonight, going by my ratings?",
)
ANSWER_TIMEOUT_S = 600
ICONS = {"check", "smart_toy", "error", "expand_more", "expand_less", "keyboard_arrow_down"}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--llm", help="MOVIEAGENT_LLM for the page: llamacpp:/path/model.gguf, ...")
    parser.add_argument("--question", action="append", help="a question (repeatable)")
    parser.add_argument("--screenshot", type=Path, default=Path(tempfile.gettempdir()) / "page.png")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    args = parser.parse_args(argv)
    if not args.llm:
        print("page_session: skipped (pass --llm SPEC to ask the questions in the page)")
        return 0
    from playwright.sync_api import sync_playwright

    from semantic_layer.settings import GraphSettings

    scratch = Path(tempfile.mkdtemp(prefix="movieagent-page-"))
    shutil.copytree(
        GraphSettings.from_env().data_dir, scratch / "data", ignore=shutil.ignore_patterns("*.lock")
    )
    env = {**os.environ, "MOVIEAGENT_LLM": args.llm, "MOVIEAGENT_DATA_DIR": str(scratch / "data")}
    port = _free_port()
    with tempfile.TemporaryFile() as log:
        server = subprocess.Popen(
            streamlit_command(port, "127.0.0.1", headless=True, env=env),
            env=env, stdout=log, stderr=subprocess.STDOUT,
        )  # fmt: skip
        try:
            url = _wait_for_health(port, server)
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
                page = browser.new_page(viewport={"width": 1280, "height": 1200})
                page.goto(url)
                results = [_ask(page, q, i) for i, q in enumerate(args.question or QUESTIONS)]
                page.screenshot(path=str(args.screenshot), full_page=True)
                browser.close()
        finally:
            alive = server.poll() is None
            server.terminate()
            server.wait(timeout=30)
            log.seek(0)
            server_log = log.read().decode(errors="replace")
            shutil.rmtree(scratch, ignore_errors=True)
    failed = [r for r in results if not r["answered"]] or ([] if alive else [{"server": "died"}])
    if args.json:
        print(json.dumps({"results": results, "server_alive": alive}, indent=2))
    else:
        for r in results:
            print(f"{r['seconds']:>7.1f} s  {'ok ' if r['answered'] else 'NO '} {r['question']}")
            print(f"           tools: {', '.join(r['steps']) or '-'}")
            print(f"           answer: {r['answer'][:160]}")
        print(f"server alive at the end: {alive}; screenshot: {args.screenshot}")
    if failed:
        print(server_log[-3000:], file=sys.stderr)
    return 1 if failed else 0


def _ask(page: Any, question: str, turn: int) -> dict[str, Any]:
    box = page.get_by_test_id("stChatInputTextArea")
    box.wait_for(timeout=ANSWER_TIMEOUT_S * 1000)
    page.wait_for_function(
        "() => !document.querySelector('[data-testid=\"stChatInputTextArea\"]').disabled",
        timeout=ANSWER_TIMEOUT_S * 1000,
    )
    started = time.monotonic()
    box.fill(question)
    box.press("Enter")
    messages = page.get_by_test_id("stChatMessage")
    deadline = started + ANSWER_TIMEOUT_S
    answer, idle_polls = "", 0
    while time.monotonic() < deadline and idle_polls < 3:  # idle for 1.5 s: the turn is over
        page.wait_for_timeout(500)
        shown = messages.count() >= 2 * (turn + 1)
        answer = messages.nth(2 * turn + 1).inner_text() if shown else ""
        idle = shown and not _running(page) and answer.strip() and CURSOR not in answer
        idle_polls = idle_polls + 1 if idle else 0
    seconds = time.monotonic() - started
    steps = [_words(s) for s in messages.nth(2 * turn + 1).locator("summary").all_inner_texts()]
    exceptions = page.get_by_test_id("stException").count()
    answered = idle_polls >= 3 and exceptions == 0 and "Connection error" not in answer
    return {
        "question": question,
        "seconds": round(seconds, 1),
        "answered": answered,
        "steps": steps,
        "answer": _words(answer),
        "exceptions": exceptions,
    }


def _words(text: str) -> str:
    """The text on one line, without the names of Material icons drawn as ligatures."""
    return " ".join(w for w in text.split() if w not in ICONS)


def _running(page: Any) -> bool:
    """Whether Streamlit still runs the script: elements of the last run not drawn again yet
    are marked stale, a step still waiting says so, and a streaming answer ends in the cursor."""
    stale = page.locator('[data-testid="stElementContainer"][data-stale="true"]').count()
    return bool(stale) or page.get_by_text("asking the model…").count() > 0


def _wait_for_health(port: int, server: subprocess.Popen[bytes]) -> str:
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as response:
                if response.status == 200:
                    return url
        except OSError:
            if server.poll() is not None:
                break
            time.sleep(0.5)
    raise SystemExit("the page did not start (see the server log above)")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


if __name__ == "__main__":
    stop_like_ctrl_c()  # SIGTERM unwinds as Ctrl-C: the graph server it started stops
    sys.exit(main())
