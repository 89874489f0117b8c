"""A loopback-only network guard for the test process (installed by ``tests/conftest.py``).

Tests may talk only to servers they start themselves on the loopback interface
(the fake provider, the fake MCP servers…). Every ``connect``/``connect_ex``/
``sendto``/``sendmsg`` of a Python socket is checked: IPv4 ``127.0.0.0/8``, IPv6
``::1`` (and v4-mapped loopback), the name ``localhost`` and Unix sockets under the
temporary directory pass; anything else raises :class:`NetworkBlocked` *and* is
recorded, so a test that swallows the exception (retry loops catch ``OSError`` and
more) still fails at teardown.

Child processes are not covered (a subprocess has its own socket module); they run
the same code paths as in-process tests do.
"""

from __future__ import annotations

import ipaddress
import socket
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

LOCAL_NAMES = frozenset({"localhost", "localhost.localdomain", "ip6-localhost"})


class NetworkBlocked(OSError):
    """A test tried to reach an address outside the loopback interface.

    An ``OSError`` so the code under test meets it exactly where an unreachable
    network would show up (and handles it the same way).
    """


def _tmp_roots() -> tuple[Path, ...]:
    roots = {Path(tempfile.gettempdir()).resolve(), Path("/tmp").resolve()}
    return tuple(roots)


def allowed(family: int, address: Any) -> bool:
    """Whether a socket of ``family`` may connect or send to ``address``."""
    if family == getattr(socket, "AF_UNIX", None):
        if isinstance(address, bytes):
            address = address.decode(errors="replace")
        if not isinstance(address, str) or not address or address.startswith("\0"):
            return False  # abstract-namespace sockets reach other processes' services
        path = Path(address).resolve()
        return any(path.is_relative_to(root) for root in _tmp_roots())
    if family in (socket.AF_INET, socket.AF_INET6) and isinstance(address, tuple) and address:
        host = address[0]
        if isinstance(host, bytes):
            host = host.decode(errors="replace")
        if not isinstance(host, str):
            return False
        if host.lower() in LOCAL_NAMES:
            return True
        try:
            ip = ipaddress.ip_address(host.split("%", 1)[0])
        except ValueError:
            return False  # a host name: resolving it would already leave the machine
        if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
            ip = ip.ipv4_mapped
        return ip.is_loopback
    return False


class SocketGuard:
    """Patches ``socket.socket`` once for the session; collects violations per test."""

    def __init__(self) -> None:
        self.violations: list[str] = []
        self._saved: dict[str, Callable[..., Any]] = {}

    def install(self) -> None:
        """Wrap the address-taking methods of ``socket.socket``."""
        cls = socket.socket
        for name, where in (("connect", 0), ("connect_ex", 0), ("sendto", -1), ("sendmsg", 3)):
            original = getattr(cls, name)
            self._saved[name] = original
            setattr(cls, name, self._wrap(name, original, where))

    def uninstall(self) -> None:
        """Put the original methods back."""
        for name, original in self._saved.items():
            setattr(socket.socket, name, original)
        self._saved.clear()

    def _wrap(self, name: str, original: Callable[..., Any], where: int) -> Callable[..., Any]:
        guard = self

        def checked(sock: socket.socket, *args: Any) -> Any:
            address = _address(args, where)
            if address is not None and not allowed(sock.family, address):
                message = f"socket.{name} to {address!r} (family {sock.family!r}) is outside loopback"
                guard.violations.append(message)
                raise NetworkBlocked(f"{message}: tests may only use servers they start on 127.0.0.1")
            return original(sock, *args)

        checked.__name__ = name
        checked.__doc__ = original.__doc__
        return checked


def _address(args: tuple[Any, ...], where: int) -> Any:
    """The address argument of a call, or ``None`` (``sendmsg`` without one, ``sendto`` on…)."""
    if where == -1:  # sendto(data, address) or sendto(data, flags, address)
        return args[-1] if len(args) >= 2 else None
    return args[where] if len(args) > where else None
