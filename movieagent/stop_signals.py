"""SIGTERM and SIGHUP end a `movieagent` command the way Ctrl-C does.

Python's default for SIGTERM ends the process on the spot: no `with` block is left, no `atexit`
hook runs, so the embedded graph server a command started (its own `redis-server`) would keep
running and holding the data directory. Raising `KeyboardInterrupt` instead unwinds the command
like Ctrl-C: the graph is closed (its server shut down after a save, or left to the other
processes still using it) and the process exits with 130.
"""

from __future__ import annotations

import signal
import threading
from types import FrameType

STOP_SIGNALS = (signal.SIGTERM, signal.SIGHUP)


class StoppedBySignal(KeyboardInterrupt):
    """The `KeyboardInterrupt` a stop signal raises; `signum` says which (a parent passes it on
    to its children, which Ctrl-C reaches from the terminal by itself)."""

    def __init__(self, signum: int) -> None:
        super().__init__(f"stopped by {signal.Signals(signum).name}")
        self.signum = signum


def _interrupt(signum: int, _frame: FrameType | None) -> None:
    raise StoppedBySignal(signum)


def stop_like_ctrl_c() -> None:
    """Install the handlers (only the main thread may; elsewhere this does nothing)."""
    if threading.current_thread() is not threading.main_thread():
        return
    for signum in STOP_SIGNALS:
        if signal.getsignal(signum) is signal.SIG_DFL:  # an ignored SIGHUP (nohup) stays so
            signal.signal(signum, _interrupt)
