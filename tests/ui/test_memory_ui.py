"""Memory in the real window on the real kernel: the Memory dialog per scope (who wrote what, where;
add / edit / remove), a VP's save in the timeline with *Undo*, and the project's scoped-recall switch."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QMenu

from foya_desktop.core.memory import MemoryScope
from foya_desktop.core.model import VP
from foya_desktop.engine.kernel import Kernel
from foya_desktop.ui.dialogs.memory import SCOPES
from foya_desktop.ui.main_window import MainWindow
from foya_desktop.ui.ops.session_actions import MEMORY
from foya_desktop.ui.projects.actions import SCOPED_RECALL
from tests.fakeprovider import FakeProviderServer, Reply, ToolCallSpec
from tests.ui.helpers import settle, wait_until
from tests.ui.ops_helpers import Turns, action_texts, find_action, open_session, say
from tests.ui.test_projects import _project_menu
from tests.ui.test_zh_views import zh_window  # noqa: F401  (the fixture)

SHOTS = Path("/tmp/shots-memory")


@pytest.fixture
def turns(real_kernel: Kernel) -> Turns:
    return Turns(real_kernel)


def _save(text: str, scope: str = "session", cid: str = "m1") -> Reply:
    return Reply(tool_calls=[ToolCallSpec("memory", {"action": "save", "scope": scope, "text": text}, id=cid)])


async def test_a_vps_save_shows_in_the_timeline_with_an_undo(
        real_window: MainWindow, real_kernel: Kernel, fake_provider: FakeProviderServer, turns: Turns) -> None:
    """Every save a VP makes shows where it was made; Undo removes the entry (and says so)."""
    SHOTS.mkdir(exist_ok=True)
    real_window.resize(1100, 760)
    sid = await open_session(real_window, real_kernel, title="Memory demo")
    fake_provider.script(_save("The API is v2; v1 is frozen."), Reply(text="Noted: I will remember that."))
    await say(real_window, real_kernel, turns, sid, "Remember: the API is v2.")
    cards = real_window.pane.cards
    await wait_until(lambda: any(c.state == "saved" for c in cards.memory_cards.values()), what="save card")
    await settle()
    [card] = cards.memory_cards.values()
    assert card.isVisible() and card.undo_button.isVisible()
    assert "this session's shared memory" in card.title.text() and "v1 is frozen" in card.text.text()
    real_window.grab().save(str(SHOTS / "timeline_save.png"))
    [entry] = await real_kernel.memory.list_memory(MemoryScope.SESSION, session_id=sid)
    assert entry.id == card.entry_id and entry.author == "omni"

    card.undo_button.click()
    await wait_until(lambda: card.state == "undone", what="undone")
    await real_window.runner.drain()
    await settle()
    assert await real_kernel.memory.list_memory(MemoryScope.SESSION, session_id=sid) == []
    assert not card.undo_button.isVisible()
    real_window.grab().save(str(SHOTS / "timeline_undone.png"))

    fake_provider.script(_save("Second fact.", cid="m2"), Reply(text="ok"))
    await say(real_window, real_kernel, turns, sid, "and this")
    await wait_until(lambda: len(cards.memory_cards) == 2 and all(
        c.state in ("saved", "undone") for c in cards.memory_cards.values()), what="second card")
    second = next(c for c in cards.memory_cards.values() if c is not card)
    await real_kernel.memory.remove_memory(second.entry_id)  # removed elsewhere: the undo goes away
    await wait_until(lambda: second.state == "gone", what="gone")
    real_window.tree_view.select_session(sid)  # reloading history shows the same states
    await real_window.runner.drain()


async def test_memory_dialog_per_scope_with_add_edit_remove(
        real_window: MainWindow, real_kernel: Kernel, fake_provider: FakeProviderServer, turns: Turns) -> None:
    """The person sees every scope with the VP and session each entry came from, and edits them."""
    SHOTS.mkdir(exist_ok=True)
    await real_kernel.vps.add_vp(VP("", "Linus", "", "You implement."))
    sid = await open_session(real_window, real_kernel, title="Pairing")
    await real_kernel.sessions.update_session(sid, roster=["omni", "Linus"], default_vp="Linus")
    fake_provider.script(_save("Linus owns the parser.", scope="vp"), Reply(text="ok"))
    await say(real_window, real_kernel, turns, sid, "remember your role")
    await real_kernel.memory.add_memory(MemoryScope.USER, "Answer in British English.")
    await real_kernel.memory.add_memory(MemoryScope.SESSION, "Deadline is Friday.", session_id=sid)

    menu = real_window.session_actions.session_menu
    menu.aboutToShow.emit()
    assert MEMORY in action_texts(menu)
    find_action(menu, MEMORY).trigger()
    await wait_until(lambda: real_window.session_actions.memory_dialog is not None
                     and real_window.session_actions.memory_dialog.isVisible(), what="memory dialog")
    await real_window.runner.drain()
    dialog = real_window.session_actions.memory_dialog
    assert dialog is not None
    vp_tree = dialog.trees[MemoryScope.VP]
    assert vp_tree.topLevelItemCount() == 1
    item = vp_tree.topLevelItem(0)
    assert item is not None
    assert [item.text(i) for i in range(4)] == ["Linus owns the parser.", "Linus", "Linus", f"Pairing ({sid})"]
    user_item = dialog.trees[MemoryScope.USER].topLevelItem(0)
    assert user_item is not None and user_item.text(2) == "you"
    dialog.tabs.setCurrentIndex(SCOPES.index(MemoryScope.VP))
    await settle()
    dialog.grab().save(str(SHOTS / "memory_dialog_vps.png"))

    dialog.tabs.setCurrentIndex(SCOPES.index(MemoryScope.SESSION_VP))
    assert dialog.vp_choice.isVisible()
    dialog.vp_choice.setCurrentIndex(dialog.vp_choice.findText("Linus"))
    dialog.new_text.setText("Linus reviewed main.py here.")
    dialog.add_button.click()
    await wait_until(lambda: dialog.trees[MemoryScope.SESSION_VP].topLevelItemCount() == 1, what="added")
    [added] = await real_kernel.memory.list_memory(MemoryScope.SESSION_VP, session_id=sid)
    assert (added.vp_id, added.author, added.session_id) == ("linus", "person", sid)

    dialog.tabs.setCurrentIndex(SCOPES.index(MemoryScope.SESSION))
    dialog.new_text.setText("   ")
    dialog.add_button.click()
    await wait_until(lambda: "needs some text" in dialog.message.text(), what="refusal in words")

    session_tree = dialog.trees[MemoryScope.SESSION]
    first = session_tree.topLevelItem(0)
    assert first is not None
    first.setText(0, "Deadline is Monday.")
    await wait_until(lambda: any(e.text == "Deadline is Monday." for e in dialog.entries[MemoryScope.SESSION]),
                     what="edited")
    assert [e.text for e in await real_kernel.memory.list_memory(MemoryScope.SESSION, session_id=sid)] == [
        "Deadline is Monday."]
    await settle()
    dialog.grab().save(str(SHOTS / "memory_dialog_session.png"))
    first = session_tree.topLevelItem(0)
    assert first is not None
    first.setSelected(True)
    assert dialog.remove_button.isEnabled()
    dialog.remove_button.click()
    await wait_until(lambda: session_tree.topLevelItemCount() == 0, what="removed")
    assert await real_kernel.memory.list_memory(MemoryScope.SESSION, session_id=sid) == []

    await real_kernel.memory.add_memory(MemoryScope.USER, "Likes tables.")  # a change elsewhere shows at once
    await wait_until(lambda: dialog.trees[MemoryScope.USER].topLevelItemCount() == 2, what="live refresh")
    dialog.reject()
    await real_window.runner.drain()


async def test_project_menu_switches_scoped_recall(
        real_window: MainWindow, real_kernel: Kernel, tmp_path: Path) -> None:
    """Y59: off by default; the project's menu turns it on and off."""
    folder = tmp_path / "proj"
    folder.mkdir()
    sid = await open_session(real_window, real_kernel, project=folder, title="In a project")
    session = await real_kernel.sessions.get_session(sid)
    assert session.project_id is not None
    menu = _project_menu(real_window, session.project_id)
    action = find_action(menu, SCOPED_RECALL)
    assert action.isCheckable() and not action.isChecked()
    action.setChecked(True)
    await real_window.runner.drain()
    assert (await real_kernel.sessions.get_session(sid)).project_id == session.project_id
    projects = {p.id: p for p in await real_kernel.projects.list_projects()}
    assert projects[session.project_id].scoped_recall
    await wait_until(lambda: bool((p := real_window.tree_model.project(session.project_id or ""))
                                  and p.scoped_recall), what="tree knows")
    menu = _project_menu(real_window, session.project_id)
    assert isinstance(menu, QMenu) and find_action(menu, SCOPED_RECALL).isChecked()
    find_action(menu, SCOPED_RECALL).setChecked(False)
    await real_window.runner.drain()
    assert not {p.id: p for p in await real_kernel.projects.list_projects()}[session.project_id].scoped_recall


async def test_memory_card_and_dialog_in_chinese(zh_window: MainWindow, real_kernel: Kernel,  # noqa: F811
                                                 fake_provider: FakeProviderServer, turns: Turns) -> None:
    """The save card and the Memory window speak zh_CN when the window does."""
    SHOTS.mkdir(exist_ok=True)
    window = zh_window
    sid = await open_session(window, real_kernel, title="记忆")
    fake_provider.script(_save("接口是 v2。"), Reply(text="好的"))
    await say(window, real_kernel, turns, sid, "记住：接口是 v2。")
    await wait_until(lambda: any(c.state == "saved" for c in window.pane.cards.memory_cards.values()),
                     what="save card")
    await settle()
    [card] = window.pane.cards.memory_cards.values()
    assert card.undo_button.text() == "撤销" and "本会话的共享记忆" in card.title.text()
    window.grab().save(str(SHOTS / "timeline_save_zh.png"))
    dialog = await window.session_actions.open_memory(sid)
    assert dialog.tabs.tabText(SCOPES.index(MemoryScope.SESSION)).startswith("本会话（共享）")
    await settle()
    dialog.grab().save(str(SHOTS / "memory_dialog_zh.png"))
    dialog.reject()
    await window.runner.drain()
