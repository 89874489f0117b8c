"""A real kernel on a real SQLite file, talking HTTP to the fake provider."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from foya_desktop.core.model import Connection, ProviderKind
from foya_desktop.engine.bootstrap import build_kernel
from foya_desktop.engine.kernel import Kernel
from foya_desktop.providers.base import RetryPolicy, Timeouts
from foya_desktop.providers.keys import KeyStore
from foya_desktop.store.home import Home
from tests.fakeprovider import FakeProviderServer
from tests.helpers.engine import Recorder
from tests.helpers.fake_keyring import MemoryKeyring

FAST_TIMEOUTS = Timeouts(connect=2, first_byte=5, idle=5, total=30)
FAST_RETRY = RetryPolicy(max_attempts=3, base_delay=0.01, max_delay=0.05, max_retry_after=0.2)


@pytest.fixture
def fake() -> Iterator[FakeProviderServer]:
    """The fake provider, speaking both wire formats on 127.0.0.1."""
    with FakeProviderServer() as server:
        yield server


@pytest.fixture
def keyring_backend() -> MemoryKeyring:
    """An in-memory keyring the kernel stores keys in."""
    return MemoryKeyring()


@pytest.fixture
async def kernel(home: Home, fake: FakeProviderServer, keyring_backend: MemoryKeyring) -> AsyncIterator[Kernel]:
    """A kernel with one keyless OpenAI-compatible connection to the fake server."""
    k = build_kernel(home, keystore=KeyStore(keyring_backend), timeouts=FAST_TIMEOUTS, retry=FAST_RETRY)
    await k.connections.add_connection(Connection("fake", ProviderKind.OPENAI, fake.base_url, "fake-model"))
    yield k
    await k.close()


@pytest.fixture
def rec(kernel: Kernel) -> Recorder:
    """Every event the kernel publishes from now on."""
    recorder = Recorder()
    kernel.bus.subscribe(recorder)
    return recorder


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A small project folder."""
    root = tmp_path / "proj"
    (root / "src").mkdir(parents=True)
    (root / "README.md").write_text("# Demo project\nHello from the readme.\n")
    (root / "src" / "app.py").write_text("print('hi')\n")
    return root
