"""Lifecycle tests run the real kernel (real SQLite, real HTTP fake provider), as the engine tests do."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import pytest

from foya_desktop.core.model import ApprovalMode, Connection, ProviderKind, Session
from foya_desktop.engine.bootstrap import build_kernel
from foya_desktop.engine.kernel import Kernel
from foya_desktop.providers.keys import KeyStore
from foya_desktop.store.home import Home
from tests.engine.conftest import FAST_RETRY, FAST_TIMEOUTS, fake, kernel, keyring_backend, project, rec
from tests.fakeprovider import FakeProviderServer
from tests.helpers.agent_script import agent_responder
from tests.helpers.engine import Recorder, wait_turns
from tests.helpers.fake_keyring import MemoryKeyring

__all__ = ["fake", "kernel", "keyring_backend", "project", "rec"]

Say = Callable[[str], Awaitable[None]]


@pytest.fixture
async def session(kernel: Kernel, fake: FakeProviderServer, project: Path) -> Session:
    """A session on the project in auto-edit mode, answered by the scripted agent."""
    fake.responder = agent_responder
    return await kernel.sessions.create_session(title="work", workdir=str(project),
                                      approval_mode=ApprovalMode.AUTO_EDIT)


@pytest.fixture
def say(kernel: Kernel, rec: Recorder, session: Session) -> Say:
    """Send a message to ``session`` and wait until its turn has finished."""
    async def send(text: str) -> None:
        before = len([e for e in rec.events if type(e).__name__ == "TurnFinished"
                      and e.session_id == session.id])
        await kernel.turns.send(session.id, text)
        done = await wait_turns(rec, session.id, before + 1)
        assert done[-1].status == "completed", done[-1].error
    return send


class KernelBox:
    """A kernel that a test can restart on the same data directory (the store's
    database binding is process-global, so only one kernel may be open at a time)."""

    def __init__(self, home: Home, keyring: MemoryKeyring) -> None:
        self.home = home
        self.keyring = keyring
        self.kernel = self._build()

    def _build(self) -> Kernel:
        return build_kernel(self.home, keystore=KeyStore(self.keyring), timeouts=FAST_TIMEOUTS,
                            retry=FAST_RETRY)

    async def restart(self) -> Kernel:
        """Close the kernel (as a clean quit would) and open a new one."""
        await self.kernel.close()
        self.kernel = self._build()
        return self.kernel

    def reopen_after_crash(self) -> Kernel:
        """Open a new kernel without closing the old one's turns (the old one is abandoned).

        The old store's lease lock is dropped the way the OS drops it when a
        process is killed, so recovery treats its sessions as crashed.
        """
        if self.kernel.store.lease is not None:
            self.kernel.store.lease.abandon()
        self.kernel = self._build()
        return self.kernel


@pytest.fixture
async def box(home: Home, fake: FakeProviderServer, keyring_backend: MemoryKeyring) -> AsyncIterator[KernelBox]:
    """A restartable kernel with the fake connection, answered by the scripted agent."""
    fake.responder = agent_responder
    kb = KernelBox(home, keyring_backend)
    await kb.kernel.connections.add_connection(Connection("fake", ProviderKind.OPENAI, fake.base_url, "fake-model"))
    yield kb
    await kb.kernel.close()
