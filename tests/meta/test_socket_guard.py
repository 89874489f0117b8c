"""The loopback-only guard every test runs under (tests/helpers/socket_guard.py)."""

from __future__ import annotations

import socket
from pathlib import Path

import httpx
import pytest

from tests.helpers.socket_guard import NetworkBlocked, SocketGuard, allowed


@pytest.mark.parametrize(("family", "address", "ok"), [
    (socket.AF_INET, ("127.0.0.1", 80), True),
    (socket.AF_INET, ("127.3.2.1", 80), True),
    (socket.AF_INET, ("localhost", 80), True),
    (socket.AF_INET6, ("::1", 80, 0, 0), True),
    (socket.AF_INET6, ("::ffff:127.0.0.1", 80, 0, 0), True),
    (socket.AF_INET, ("10.0.0.1", 80), False),
    (socket.AF_INET, ("8.8.8.8", 53), False),
    (socket.AF_INET, ("0.0.0.0", 80), False),
    (socket.AF_INET, ("example.com", 443), False),
    (socket.AF_INET6, ("2001:db8::1", 80, 0, 0), False),
    (socket.AF_UNIX, "/tmp/foya-test.sock", True),
    (socket.AF_UNIX, "/run/dbus/system_bus_socket", False),
    (socket.AF_UNIX, "\0abstract", False),
])
def test_only_loopback_and_temporary_unix_sockets_are_allowed(family: int, address: object, ok: bool) -> None:
    assert allowed(family, address) is ok


def test_a_connection_outside_loopback_is_refused_before_it_leaves(loopback_only: SocketGuard) -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock, pytest.raises(NetworkBlocked):
        sock.connect(("192.0.2.1", 9))  # TEST-NET-1: would hang or fail, never reached
    assert len(loopback_only.violations) == 1
    loopback_only.violations.clear()  # this test wanted the violation; do not fail it


def test_a_swallowed_violation_is_still_recorded(loopback_only: SocketGuard) -> None:
    """httpx wraps the guard's error like any connect failure; the record survives."""
    with pytest.raises(httpx.HTTPError):
        httpx.get("http://192.0.2.1:9/", timeout=1)
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        with pytest.raises(NetworkBlocked):
            sock.sendto(b"x", ("192.0.2.1", 9))
    assert [v.split(" ")[0] for v in loopback_only.violations] == ["socket.connect", "socket.sendto"]
    loopback_only.violations.clear()


def test_loopback_and_unix_sockets_in_tmp_work(tmp_path: Path) -> None:
    server = socket.create_server(("127.0.0.1", 0))
    with server, socket.create_connection(server.getsockname(), timeout=2):
        pass
    path = tmp_path / "s.sock"
    with socket.socket(socket.AF_UNIX) as listener:
        listener.bind(str(path))
        listener.listen()
        with socket.socket(socket.AF_UNIX) as client:
            client.connect(str(path))
