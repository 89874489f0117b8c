"""Shared fixtures: a private FOYA_HOME per test, a real SQLite store."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from foya_desktop.store.home import Home
from foya_desktop.store.store import Store


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
