"""The stdio transport's stdin reader: whole lines, however the pipe cuts its chunks."""

from __future__ import annotations

import os

import anyio

from mcp_server.stdin_lines import DaemonStdin, split_lines


def test_lines_cut_across_chunks_come_back_whole() -> None:
    amelie = '{"name": "Amélie"}'.encode()
    cut = amelie.index("é".encode()) + 1  # between the two bytes of é
    chunks = [b'{"id": 1}\n{"id"', b": 2}\n", b"\n", amelie[:cut], amelie[cut:]]
    assert list(split_lines(iter(chunks))) == [
        '{"id": 1}\n',
        '{"id": 2}\n',
        "\n",
        '{"name": "Amélie"}',  # the last line, without its newline: still a line
    ]


def test_undecodable_bytes_are_replaced_not_fatal() -> None:
    assert list(split_lines(iter([b"\xff\xfe ok\n"]))) == ["\ufffd\ufffd ok\n"]


def test_the_reader_yields_each_line_then_ends_with_the_pipe() -> None:
    read_end, write_end = os.pipe()
    os.write(write_end, b'{"a": 1}\n{"b": 2}\n')
    os.close(write_end)

    async def read_all() -> list[str]:
        return [line async for line in DaemonStdin(read_end)]

    try:
        assert anyio.run(read_all) == ['{"a": 1}\n', '{"b": 2}\n']
    finally:
        os.close(read_end)
