"""Other processes' writes told on this kernel's bus (``engine/session/outside.py``): this test's
kernel and real ``foya`` processes on one SQLite file — the way the window and a terminal share
it. The other process's commits reach this kernel only through the database."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from foya_desktop.core.events import (
    HistoryRewound,
    MessageAdded,
    SessionChanged,
    SessionDeletedEvent,
)
from foya_desktop.core.model import Phase
from foya_desktop.engine.kernel import Kernel
from foya_desktop.engine.session.outside import OutsideWrites
from foya_desktop.store.home import Home
from tests.fakeprovider import FakeProviderServer, Reply
from tests.helpers.cli_process import foya_async
from tests.helpers.engine import Recorder, wait_for

POLL = 0.05


@pytest.fixture
async def watcher(kernel: Kernel) -> AsyncIterator[OutsideWrites]:
    watch = OutsideWrites(kernel.store, kernel.bus, lambda sid: kernel.turns.phase(sid) != Phase.IDLE, poll_s=POLL)
    watch.start()
    await asyncio.sleep(POLL * 3)  # its start point is taken
    yield watch
    await watch.stop()


def _added(rec: Recorder, session_id: str) -> list[str]:
    return [e.message.text for e in rec.of(MessageAdded)
            if isinstance(e, MessageAdded) and e.session_id == session_id]


async def test_an_idle_database_tells_nothing(kernel: Kernel, watcher: OutsideWrites, rec: Recorder) -> None:
    await kernel.sessions.create_session(title="mine")
    await asyncio.sleep(POLL * 10)
    assert len(rec.events) == 1  # the kernel's own SessionChanged; the watcher told nothing more


async def test_own_turns_are_not_told_again(kernel: Kernel, fake: FakeProviderServer,
                                            watcher: OutsideWrites, rec: Recorder) -> None:
    session = await kernel.sessions.create_session(title="mine", connection="fake", model="fake-model")
    fake.script(Reply(text="my own reply"))
    await kernel.turns.send(session.id, "hi")
    await kernel.turns.wait_idle()
    await asyncio.sleep(POLL * 10)
    assert _added(rec, session.id) == ["hi", "my own reply"]


async def test_a_turn_a_rename_a_rewind_and_a_deletion_in_another_process(
        kernel: Kernel, home: Home, fake: FakeProviderServer, watcher: OutsideWrites, rec: Recorder,
        project: Path) -> None:
    session = await kernel.sessions.create_session(title="shared", workdir=str(project), connection="fake",
                                          model="fake-model")
    fake.script(Reply(text="written by the other process"))
    code, _, err = await foya_async(home.root, "run", "--session", session.id, "hi from there")
    assert code == 0, err
    await wait_for(lambda: _added(rec, session.id) == ["hi from there", "written by the other process"])
    await asyncio.sleep(POLL * 10)
    assert len(_added(rec, session.id)) == 2  # never told twice

    code, _, err = await foya_async(home.root, "sessions", "set", session.id, "--title", "renamed there")
    assert code == 0, err
    await wait_for(lambda: any(isinstance(e, SessionChanged) and e.session.title == "renamed there"
                               for e in rec.events))

    first = (await kernel.history.messages(session.id))[0]
    code, _, err = await foya_async(home.root, "sessions", "rewind", session.id, "--to", first.id)
    assert code == 0, err
    await wait_for(lambda: any(isinstance(e, HistoryRewound) and e.session_id == session.id for e in rec.events))

    code, _, err = await foya_async(home.root, "sessions", "delete", session.id, "--yes")
    assert code == 0, err
    await wait_for(lambda: any(isinstance(e, SessionDeletedEvent) and e.session_id == session.id
                               for e in rec.events))
