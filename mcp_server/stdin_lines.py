"""The lines of stdin for the stdio transport, read by a daemon thread.

The MCP SDK reads stdin in an AnyIO worker thread, blocked in `read()` until the client sends a
line. That thread is not a daemon: a server stopped by SIGTERM or Ctrl-C while its client keeps
the pipe open closed its graph, then waited at exit for a line that never came. A daemon
thread's read ends with the process. It reads the file descriptor itself (`os.read`), never
`sys.stdin`'s buffered reader, whose lock a daemon thread would hold while the interpreter
shuts down (a fatal error).
"""

from __future__ import annotations

import os
import threading
from collections.abc import AsyncIterator, Iterator

import anyio
import anyio.from_thread
import anyio.lowlevel

BUFFERED_LINES = 16
READ_SIZE = 65_536


def split_lines(chunks: Iterator[bytes]) -> Iterator[str]:
    """The lines of a stream of byte chunks, decoded, each with its newline (the last may lack it)."""
    pending = b""
    for chunk in chunks:
        *lines, pending = (pending + chunk).split(b"\n")
        for line in lines:
            yield (line + b"\n").decode("utf-8", errors="replace")
    if pending:
        yield pending.decode("utf-8", errors="replace")


def _chunks(fd: int) -> Iterator[bytes]:
    while chunk := os.read(fd, READ_SIZE):
        yield chunk


class DaemonStdin:
    """An async iterable of the lines read from file descriptor `fd` (what `stdio_server` reads)."""

    def __init__(self, fd: int) -> None:
        self._fd = fd

    def __aiter__(self) -> AsyncIterator[str]:
        return self._lines()

    async def _lines(self) -> AsyncIterator[str]:
        send, receive = anyio.create_memory_object_stream[str](BUFFERED_LINES)
        token = anyio.lowlevel.current_token()

        def pump() -> None:
            try:
                for line in split_lines(_chunks(self._fd)):
                    anyio.from_thread.run(send.send, line, token=token)
                anyio.from_thread.run_sync(send.close, token=token)  # end of input
            except (anyio.ClosedResourceError, anyio.BrokenResourceError, RuntimeError, OSError):
                return  # the server stopped reading, or its event loop has ended

        threading.Thread(target=pump, name="mcp-stdin", daemon=True).start()
        async with receive:
            async for line in receive:
                yield line
