"""Run the Streamlit server as a child that never outlives `movieagent ui`.

SIGTERM, SIGINT and SIGHUP sent to the command are passed on to the child, which stops the way
Streamlit stops on Ctrl-C (its sessions end, the embedded graph it opened is shut down or handed
back to the other processes using it); a child still running `grace_s` seconds later is killed.
"""

from __future__ import annotations

import signal
import subprocess
import time
from collections.abc import Sequence
from types import FrameType

STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)
GRACE_S = 20.0
POLL_S = 0.2


def run_supervised(command: Sequence[str], grace_s: float = GRACE_S) -> int:
    """Run `command` until it ends and return its exit code (0 when a signal stopped it)."""
    child = subprocess.Popen(list(command))
    stop_asked: list[float] = []

    def pass_on(signum: int, _frame: FrameType | None) -> None:
        if not stop_asked:
            stop_asked.append(time.monotonic())
        if child.poll() is None:
            child.send_signal(signum)

    previous = {s: signal.signal(s, pass_on) for s in STOP_SIGNALS}
    try:
        while True:
            try:
                code = child.wait(timeout=POLL_S)
                break
            except subprocess.TimeoutExpired:
                if stop_asked and time.monotonic() - stop_asked[0] > grace_s:
                    child.kill()
    finally:
        if child.poll() is None:  # an exception of our own: the child goes too
            child.kill()
            child.wait()
        for signum, handler in previous.items():
            signal.signal(signum, handler)
    return 0 if stop_asked and code in (0, -signal.SIGTERM, -signal.SIGINT) else code
