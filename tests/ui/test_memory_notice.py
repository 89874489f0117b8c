"""A VP's save that reaches other projects (user and VP memory) is announced in the real window, with an
*Undo* that removes it — in the session on screen and in one running in the background (docs/window/memory.md "Memory")."""

from __future__ import annotations

from pathlib import Path

import pytest

from foya_desktop.core.memory import MemoryScope
from foya_desktop.core.model import VP
from foya_desktop.engine.kernel import Kernel
from foya_desktop.ui.main_window import MainWindow
from tests.fakeprovider import FakeProviderServer, Reply, ToolCallSpec
from tests.ui.helpers import settle, wait_until
from tests.ui.ops_helpers import Turns, open_session, say

SHOTS = Path("/tmp/shots-memory")


@pytest.fixture
def turns(real_kernel: Kernel) -> Turns:
    return Turns(real_kernel)


def _save(text: str, scope: str, cid: str) -> Reply:
    return Reply(tool_calls=[ToolCallSpec("memory", {"action": "save", "scope": scope, "text": text}, id=cid)])


async def test_a_vp_scope_save_shows_a_notice_whose_undo_removes_it(
        real_window: MainWindow, real_kernel: Kernel, fake_provider: FakeProviderServer, turns: Turns) -> None:
    real_window.resize(1100, 760)
    sid = await open_session(real_window, real_kernel, title="On screen")
    notices = real_window.memory_notices
    assert not notices.isVisible() and notices.notices == []
    fake_provider.script(_save("Always answer in haiku.", "vp", "m1"), Reply(text="Noted."))
    await say(real_window, real_kernel, turns, sid, "remember how I like answers")
    await wait_until(lambda: len(notices.notices) == 1, what="memory notice")
    [notice] = notices.notices
    assert notices.isVisible() and notice.isVisible() and notice.undo_button.isVisible()
    assert "Omni saved to Omni's memory" in notice.title.text()
    assert "every session of every project" in notice.title.text()
    assert "Always answer in haiku." in notice.text.text()
    [entry] = await real_kernel.memory.list_memory(MemoryScope.VP)
    assert entry.id == notice.entry_id
    await settle()
    SHOTS.mkdir(exist_ok=True)
    real_window.grab().save(str(SHOTS / "memory_notice.png"))

    notice.undo_button.click()
    await wait_until(lambda: notice.state == "undone", what="undone")
    await real_window.runner.drain()
    await settle()
    assert await real_kernel.memory.list_memory(MemoryScope.VP) == []
    assert "removed from memory" in notice.status.text() and not notice.undo_button.isVisible()
    card = next(iter(real_window.pane.cards.memory_cards.values()))  # the timeline's card follows
    await wait_until(lambda: card.state == "gone", what="card gone")
    notice.dismiss_button.click()
    await wait_until(lambda: notices.notices == [] and not notices.isVisible(), what="dismissed")


async def test_a_save_in_a_background_session_is_announced_and_a_removal_elsewhere_clears_it(
        real_window: MainWindow, real_kernel: Kernel, fake_provider: FakeProviderServer, turns: Turns) -> None:
    await real_kernel.vps.add_vp(VP("", "Linus", "", "You implement."))
    await open_session(real_window, real_kernel, title="On screen")
    hidden = await real_kernel.sessions.create_session(title="Background", roster=["Linus"],
                                                       connection="fake", model="fake-model")
    fake_provider.script(_save("Linus prefers tabs.", "vp", "b1"), Reply(text="ok"),
                         _save("Session-only fact.", "session", "b2"), Reply(text="ok"))
    await real_kernel.turns.send(hidden.id, "remember tabs")
    await wait_until(lambda: len(turns.of(hidden.id)) == 1, timeout=20, what="background turn")
    notices = real_window.memory_notices
    await wait_until(lambda: len(notices.notices) == 1, what="notice for a session not on screen")
    [notice] = notices.notices
    assert "Linus saved to Linus's memory" in notice.title.text() and "Linus prefers tabs." in notice.text.text()
    await real_kernel.turns.send(hidden.id, "and a session fact")
    await wait_until(lambda: len(turns.of(hidden.id)) == 2, timeout=20, what="second background turn")
    await settle()
    assert len(notices.notices) == 1  # session memory stays in its session: no notice
    await real_kernel.memory.remove_memory(notice.entry_id)  # removed elsewhere (Memory window, CLI)
    await wait_until(lambda: notices.notices == [] and not notices.isVisible(), what="notice gone")
