"""The page in a real browser: Streamlit headless on a free loopback port with a scripted model,
driven by Playwright with Debian's Chromium (never a downloaded browser)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.ui import harness

REPO = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = REPO / "test-artifacts"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]

playwright_api = pytest.importorskip(
    "playwright.sync_api", reason="the playwright package is not installed (pip install playwright)"
)
pytestmark = pytest.mark.skipif(
    not CHROMIUM.is_file(), reason=f"{CHROMIUM} not found (apt-get install chromium)"
)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    port = _free_port()
    env = {
        **os.environ,
        "MOVIEAGENT_DATA_DIR": str(tmp_path / "data"),
        "PYTHONPATH": str(REPO),
        "HF_HUB_OFFLINE": "1",
    }
    env.pop("PYTEST_CURRENT_TEST", None)  # the page builds its own services (harness.py)
    command = [
        sys.executable, "-m", "streamlit", "run", str(REPO / "tests/ui/scripted_app.py"),
        "--server.headless", "true", "--server.port", str(port),
        "--server.address", "127.0.0.1", "--server.fileWatcherType", "none",
        "--browser.gatherUsageStats", "false", "--client.toolbarMode", "minimal",
    ]  # fmt: skip
    log = (tmp_path / "streamlit.log").open("w")
    process = subprocess.Popen(command, cwd=REPO, env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as response:
                    if response.status == 200:
                        break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    pytest.fail(
                        "streamlit did not start:\n" + (tmp_path / "streamlit.log").read_text()
                    )
                time.sleep(0.3)
        yield url
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
        log.close()


def test_question_answered_in_a_real_browser(server: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    with playwright_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 1000})
            page.goto(server)
            box = page.get_by_test_id("stChatInputTextArea")
            box.wait_for(timeout=60_000)
            page.get_by_text("My ratings (0)").wait_for(timeout=30_000)
            box.fill("Something like Heat but funnier")
            box.press("Enter")
            page.get_by_text(harness.HEAT_ANSWER).wait_for(timeout=60_000)
            page.get_by_text("Why: 31 viewers liked both").first.wait_for(timeout=10_000)
            page.get_by_text("Step 1:").first.click()  # open the tool step
            page.get_by_text("tools/recommend_by_movie").first.wait_for(timeout=10_000)
            page.wait_for_timeout(1500)  # let the graph picture render
            page.screenshot(path=str(ARTIFACTS / "ui-answer.png"), full_page=True)
            assert page.get_by_test_id("stException").count() == 0
            assert page.get_by_text("Midnight Run (1988)").count() >= 1
        finally:
            browser.close()
