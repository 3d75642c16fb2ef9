import socket

import pytest

from tests.conftest import NetworkAccessError


def test_connecting_outside_loopback_fails_the_test() -> None:
    with socket.socket() as s, pytest.raises(NetworkAccessError):
        s.connect(("192.0.2.1", 80))


def test_loopback_is_allowed() -> None:
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(1)
        with socket.socket() as client:
            client.connect(server.getsockname())
