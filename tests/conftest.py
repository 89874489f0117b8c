"""Shared fixtures: a private FOYA_HOME per test, a real SQLite store, the loopback-only guard."""

from __future__ import annotations

import importlib.util
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from foya_desktop.store.home import Home
from foya_desktop.store.store import Store
from tests.helpers.socket_guard import SocketGuard

GUARD = SocketGuard()

QT_PRESENT = all(importlib.util.find_spec(m) is not None for m in ("PySide6", "qasync"))
"""Without Qt (the engine-only CI job) the window's tests are not collected; nothing here imports Qt."""
collect_ignore = [] if QT_PRESENT else ["ui"]


def pytest_configure(config: pytest.Config) -> None:
    """Install the loopback-only socket guard before any test module is imported."""
    GUARD.install()


def pytest_unconfigure(config: pytest.Config) -> None:
    GUARD.uninstall()


@pytest.fixture(autouse=True)
def loopback_only() -> Iterator[SocketGuard]:
    """Fails the test if it tried to reach any address outside loopback, even if the
    code under test caught the :class:`~tests.helpers.socket_guard.NetworkBlocked` error."""
    GUARD.violations.clear()
    yield GUARD
    found, GUARD.violations[:] = list(GUARD.violations), []
    if found:
        pytest.fail("network access outside loopback:\n" + "\n".join(found), pytrace=False)


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Home:
    """A fresh data directory; ``FOYA_HOME`` points at it."""
    root = tmp_path / "foya-home"
    monkeypatch.setenv("FOYA_HOME", str(root))
    return Home(root)


@pytest.fixture
async def store(home: Home) -> AsyncIterator[Store]:
    """A real store on a real SQLite file."""
    s = Store(home)
    yield s
    await s.close()
