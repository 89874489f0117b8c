"""Branch, rewind, delete, compact and sub-agent sessions, done from the window.

The real window on the real kernel (SQLite in a temp home) with the HTTP fake
provider playing a scripted model: ``write PATH TEXT`` lines become
``write_file`` calls, ``spawn TASK`` starts a sub-agent, anything else gets
"reply to: …" (tests/helpers/agent_script.py).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QBuffer, QByteArray, QIODevice, Qt
from PySide6.QtGui import QColor, QImage
from PySide6.QtTest import QTest

from foya_desktop.core.events import SessionChanged
from foya_desktop.core.model import Phase, Session
from foya_desktop.engine.kernel import Kernel
from foya_desktop.engine.request.summary import SUMMARY_SYSTEM
from foya_desktop.ui.main_window import MainWindow
from foya_desktop.ui.ops.confirm import ConfirmDialog, InfoDialog
from foya_desktop.ui.ops.rewind_dialog import RewindDialog
from foya_desktop.ui.ops.session_actions import (
    BRANCH_HERE,
    BRANCH_LATEST,
    COMPACT_NOW,
    DELETE,
    FORK_SESSION,
    FORK_TURN,
    MEMORY,
    MERGE_WITH,
    REWIND_HERE,
    ROSTER,
    SHOW_SUMMARY,
)
from foya_desktop.ui.reading.message_actions import EDIT_AS_NEW, QUOTE
from foya_desktop.ui.reading.selection import SELECT_TEXT
from foya_desktop.ui.timeline.rows import CheckpointRow, MessageRow, StreamRow, checkpoint_text
from tests.fakeprovider import FakeProviderServer, Reply, system_prompt
from tests.helpers.agent_script import agent_responder
from tests.ui.helpers import dialog_of, settle, show, visible_dialog, wait_until
from tests.ui.ops_helpers import (
    Turns,
    action_texts,
    find_action,
    grab_menu,
    open_session,
    row_of,
    rows,
    say,
    texts,
    tree_menu,
)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A small project folder."""
    root = tmp_path / "proj"
    root.mkdir()
    (root / "README.md").write_text("# Demo\nThe original readme.\n")
    return root


@pytest.fixture
def turns(real_kernel: Kernel, fake_provider: FakeProviderServer) -> Turns:
    """The scripted model answers; finished turns are counted."""
    fake_provider.responder = agent_responder
    return Turns(real_kernel)


async def test_branch_from_a_reply_opens_the_branch_selected_in_the_tree(
        real_window: MainWindow, real_kernel: Kernel, turns: Turns, project: Path, shots: Path) -> None:
    sid = await open_session(real_window, real_kernel, project, title="Plans")
    await say(real_window, real_kernel, turns, sid, "hello")
    await say(real_window, real_kernel, turns, sid, "second thoughts")
    view = real_window.pane.timeline_view
    assert action_texts(view.menu_for_row(row_of(real_window, "user", "hello"))) == [
        QUOTE, EDIT_AS_NEW, REWIND_HERE, "Copy text", SELECT_TEXT]  # quote / edit as new / select: ui/reading
    menu = view.menu_for_row(row_of(real_window, "assistant", "reply to: hello"))
    assert action_texts(menu) == [QUOTE, BRANCH_HERE, FORK_TURN, "Copy text", SELECT_TEXT]
    grab_menu(menu, shots / "ops_timeline_menu_reply.png")
    grab_menu(view.menu_for_row(row_of(real_window, "user", "second")), shots / "ops_timeline_menu_user.png")
    grab_menu(tree_menu(real_window, sid), shots / "ops_tree_menu.png")

    find_action(menu, BRANCH_HERE).trigger()
    await wait_until(lambda: real_window.pane.session is not None and real_window.pane.session.id != sid,
                     what="the branch opened")
    await real_window.runner.drain()
    branch = real_window.pane.session
    assert branch is not None and branch.title == "Plans (branch)" and branch.parent_id is None
    assert real_window.tree_view.currentIndex() == real_window.tree_model.index_of_session(branch.id)
    await wait_until(lambda: texts(real_window, "assistant") == ["reply to: hello"], what="branch history")
    assert texts(real_window, "user") == ["hello"]
    assert len(await real_kernel.history.history_page(sid)) == 4  # the source is untouched


async def test_branch_refused_by_the_kernel_says_why(
        real_window: MainWindow, real_kernel: Kernel, turns: Turns) -> None:
    sid = await open_session(real_window, real_kernel)
    find_action(tree_menu(real_window, sid), BRANCH_LATEST).trigger()
    info = await dialog_of(InfoDialog)
    assert info.heading.text() == "Nothing to branch from yet"
    info.ok_button.click()
    await say(real_window, real_kernel, turns, sid, "hello")
    user_id = next(r.message.id for r in rows(real_window) if isinstance(r, MessageRow))
    real_window.runner.spawn(real_window.session_actions.flows.branch(sid, user_id))
    info = await dialog_of(InfoDialog)
    assert "Cannot branch at a user message" in info.text.text()  # the kernel's own words
    info.ok_button.click()
    await real_window.runner.drain()
    assert real_window.pane.session is not None and real_window.pane.session.id == sid


async def test_rewind_previews_then_restores_files_and_gives_the_text_back(
        real_window: MainWindow, real_kernel: Kernel, turns: Turns, project: Path, shots: Path) -> None:
    original = (project / "README.md").read_text()
    sid = await open_session(real_window, real_kernel, project)
    await say(real_window, real_kernel, turns, sid, "hello")
    command = "write README.md rewritten by the model\nwrite notes/new.txt brand new"
    await say(real_window, real_kernel, turns, sid, command)
    assert (project / "README.md").read_text() == "rewritten by the model"
    menu = real_window.pane.timeline_view.menu_for_row(row_of(real_window, "user", "write README.md"))
    action = find_action(menu, REWIND_HERE)
    assert action.isEnabled()
    action.trigger()

    dialog = await dialog_of(RewindDialog)
    body = dialog.body.text()
    assert "README.md" in body and "notes/new.txt" in body
    assert "Restored to how they were before (1)" in body and "deleted (1)" in body
    assert f"<b>{dialog.preview.messages_removed} messages</b>" in body
    assert dialog.preview.messages_removed == 5  # user, call, two results, "done"
    await settle()
    dialog.grab().save(str(shots / "ops_rewind_preview.png"))
    assert (project / "README.md").read_text() == "rewritten by the model"  # preview changes nothing

    dialog.confirm_button.click()
    await real_window.runner.drain()  # the flow ends once the kernel committed
    assert visible_dialog(RewindDialog) is None
    assert (project / "README.md").read_text() == original
    assert not (project / "notes" / "new.txt").exists()
    await wait_until(lambda: texts(real_window, "user") == ["hello"], what="timeline reloaded")
    assert texts(real_window, "assistant") == ["reply to: hello"]
    assert real_window.pane.composer.input.toPlainText() == command


async def test_stale_preview_is_refreshed_and_confirmed_again(
        real_window: MainWindow, real_kernel: Kernel, turns: Turns, project: Path, shots: Path) -> None:
    sid = await open_session(real_window, real_kernel, project)
    await say(real_window, real_kernel, turns, sid, "write notes.txt from the model")
    real_window.pane.composer.input.setPlainText("a draft I was writing")
    find_action(real_window.pane.timeline_view.menu_for_row(0), REWIND_HERE).trigger()
    dialog = await dialog_of(RewindDialog)
    assert "notes.txt" in dialog.body.text() and "deleted (1)" in dialog.body.text()

    (project / "notes.txt").write_text("edited by hand meanwhile")  # the file-state token moves
    dialog.confirm_button.click()
    await wait_until(dialog.notice.isVisible, what="stale notice")
    assert dialog.isVisible() and "changed since this preview" in dialog.notice.text()
    assert "Not touched — cannot be restored safely (1)" in dialog.body.text()
    assert "changed outside Foya" in dialog.body.text()
    assert dialog.confirm_button.isEnabled()
    await settle()
    dialog.grab().save(str(shots / "ops_rewind_stale.png"))

    dialog.confirm_button.click()
    await real_window.runner.drain()
    assert visible_dialog(RewindDialog) is None
    assert (project / "notes.txt").read_text() == "edited by hand meanwhile"  # shown, untouched
    await wait_until(lambda: not rows(real_window), what="timeline emptied")
    assert real_window.pane.composer.input.toPlainText() == (
        "write notes.txt from the model\n\na draft I was writing")


async def test_rewind_is_not_offered_while_busy_and_cancel_changes_nothing(
        real_window: MainWindow, real_kernel: Kernel, turns: Turns, fake_provider: FakeProviderServer,
        project: Path) -> None:
    sid = await open_session(real_window, real_kernel, project)
    await say(real_window, real_kernel, turns, sid, "write a.txt one")
    fake_provider.responder = lambda _body: Reply(text="slow " * 200, chunk_size=4, delay_per_chunk=0.01)
    await real_kernel.turns.send(sid, "a long one")
    # NOTE: wait for streamed text, not just the phase: stop() before the turn task exists is a no-op
    await wait_until(lambda: any(isinstance(r, StreamRow) for r in rows(real_window)), what="streaming")
    action = find_action(real_window.pane.timeline_view.menu_for_row(0), REWIND_HERE)
    assert not action.isEnabled() and "stop the running reply first" in action.text()
    await real_kernel.turns.stop(sid, keep_queue=False)
    await wait_until(lambda: real_kernel.turns.phase(sid) == Phase.IDLE)
    find_action(real_window.pane.timeline_view.menu_for_row(0), REWIND_HERE).trigger()
    dialog = await dialog_of(RewindDialog)
    dialog.cancel_button.click()
    await real_window.runner.drain()
    assert (project / "a.txt").read_text() == "one"
    assert texts(real_window, "user") == ["write a.txt one", "a long one"]


async def test_rewind_to_a_message_with_an_image_says_why_not(
        real_window: MainWindow, real_kernel: Kernel, turns: Turns) -> None:
    sid = await open_session(real_window, real_kernel)
    image = QImage(8, 8, QImage.Format.Format_RGB32)
    image.fill(QColor("teal"))
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")  # type: ignore[call-overload]  # stub says bytes; the binding wants str
    before = len(turns.of(sid))
    await real_kernel.turns.send(sid, "what is in this picture?", attachments=[("image/png", bytes(data.data()))])
    await wait_until(lambda: len(turns.of(sid)) > before and real_kernel.turns.phase(sid) == Phase.IDLE, timeout=15)
    await wait_until(lambda: texts(real_window, "user") == ["what is in this picture?"], what="user row")
    action = find_action(real_window.pane.timeline_view.menu_for_row(0), REWIND_HERE)
    assert not action.isEnabled() and "messages with images cannot go back to the composer" in action.text()
    message_id = next(r.message.id for r in rows(real_window) if isinstance(r, MessageRow))
    real_window.runner.spawn(real_window.session_actions.flows.rewind(sid, message_id))
    info = await dialog_of(InfoDialog)  # the kernel refuses in its own words, too
    assert info.heading.text() == "Cannot rewind to this message" and "images" in info.text.text()
    info.ok_button.click()
    await real_window.runner.drain()


async def _parent_with_child(window: MainWindow, kernel: Kernel, turns: Turns, project: Path) -> tuple[str, str]:
    sid = await open_session(window, kernel, project, title="Lead")
    await say(window, kernel, turns, sid, "spawn write from_child.txt hi")
    (child,) = [s for s in await kernel.sessions.list_sessions() if s.parent_id == sid]
    await wait_until(lambda: window.tree_model.session(child.id) is not None, what="child in the tree")
    assert window.tree_model.index_of_session(child.id).parent() == window.tree_model.index_of_session(sid)
    return sid, child.id


async def test_delete_asks_first_cancel_keeps_and_del_key_deletes_with_children(
        real_window: MainWindow, real_kernel: Kernel, turns: Turns, project: Path, shots: Path) -> None:
    sid, child_id = await _parent_with_child(real_window, real_kernel, turns, project)
    find_action(tree_menu(real_window, sid), DELETE).trigger()
    dialog = await dialog_of(ConfirmDialog)
    assert dialog.question.text() == "Delete “Lead”?"
    assert "cannot be undone" in dialog.body.text() and "Its 1 sub-agent session goes too" in dialog.body.text()
    assert dialog.cancel_button.isDefault()
    await settle()
    dialog.grab().save(str(shots / "ops_delete_confirm.png"))
    dialog.cancel_button.click()
    await real_window.runner.drain()
    assert {s.id for s in await real_kernel.sessions.list_sessions()} == {sid, child_id}
    assert real_window.tree_model.session(sid) is not None

    real_window.activateWindow()
    real_window.tree_view.select_session(sid)
    real_window.tree_view.setFocus()
    await settle()
    QTest.keyClick(real_window.tree_view, Qt.Key.Key_Delete)
    dialog = await dialog_of(ConfirmDialog)
    dialog.confirm_button.click()
    await real_window.runner.drain()
    assert await real_kernel.sessions.list_sessions() == []
    assert real_window.tree_model.session(sid) is None and real_window.tree_model.session(child_id) is None
    assert real_window.stack.currentWidget() is real_window.welcome and real_window.pane.session is None

    real_kernel.bus.publish(SessionChanged(sid, Session(sid, "Lead")))  # a late event must not revive it
    await settle()
    assert real_window.tree_model.session(sid) is None


async def test_compact_now_shows_the_phase_then_a_marker_that_stays(
        real_window: MainWindow, real_kernel: Kernel, turns: Turns, fake_provider: FakeProviderServer,
        shots: Path) -> None:
    sid = await open_session(real_window, real_kernel, title="Long talk")
    await say(real_window, real_kernel, turns, sid, "first question")
    await say(real_window, real_kernel, turns, sid, "second question")

    def respond(body: dict[str, Any]) -> Reply:
        if system_prompt(body) == SUMMARY_SYSTEM:
            return Reply(text="SUMMARY: two questions, two answers.", chunk_size=3, delay_per_chunk=0.02)
        return agent_responder(body)

    fake_provider.responder = respond
    seen: list[str] = []
    real_window.bridge.phase_changed.connect(
        lambda s, _p: seen.append(real_window.pane.status.phase_label.text()) if s == sid else None)
    find_action(tree_menu(real_window, sid), COMPACT_NOW).trigger()
    await wait_until(real_window.pane.timeline_model.checkpoint_rows, what="marker row")
    await real_window.runner.drain()
    assert seen[:2] == ["Compacting history…", "Idle"]
    marker_at = next(i for i, r in enumerate(rows(real_window)) if isinstance(r, CheckpointRow))
    assert marker_at == len(rows(real_window)) - 1
    assert real_window.pane.timeline_model.index(marker_at, 0).data() == checkpoint_text()

    await say(real_window, real_kernel, turns, sid, "third question")
    assert isinstance(rows(real_window)[marker_at], CheckpointRow)  # newer messages go below it
    assert texts(real_window, "user") == ["first question", "second question", "third question"]
    await settle()
    real_window.grab().save(str(shots / "ops_checkpoint_marker.png"))

    other = await open_session(real_window, real_kernel, title="Elsewhere")
    assert other != sid
    real_window.tree_view.select_session(sid)
    await wait_until(real_window.pane.timeline_model.checkpoint_rows, what="marker after reopen")
    assert isinstance(rows(real_window)[marker_at], CheckpointRow)
    find_action(real_window.pane.timeline_view.menu_for_row(marker_at), SHOW_SUMMARY).trigger()
    info = await dialog_of(InfoDialog)
    assert info.text.text() == "SUMMARY: two questions, two answers."
    info.ok_button.click()
    await real_window.runner.drain()


async def test_child_session_is_read_only_with_a_way_back_to_the_parent(
        real_window: MainWindow, real_kernel: Kernel, turns: Turns, project: Path, shots: Path) -> None:
    sid, child_id = await _parent_with_child(real_window, real_kernel, turns, project)
    pane, banner = real_window.pane, real_window.session_actions.banner
    assert pane.composer.isEnabled() and banner.mode == ""
    real_window.tree_view.select_session(child_id)
    await wait_until(lambda: pane.session is not None and pane.session.id == child_id)
    await real_window.runner.drain()
    await wait_until(lambda: texts(real_window, "user") == ["write from_child.txt hi"], what="child history")
    assert not pane.composer.isEnabled() and banner.isVisible() and banner.mode == "child"
    assert "Sub-agent session — read-only" in banner.text.text() and "Lead" in banner.text.text()
    assert "read-only" in pane.composer.input.placeholderText().lower()
    action = find_action(pane.timeline_view.menu_for_row(0), REWIND_HERE)
    assert not action.isEnabled() and "read-only" in action.text()
    await settle()
    real_window.grab().save(str(shots / "ops_child_session.png"))

    banner.parent_button.click()
    await wait_until(lambda: pane.session is not None and pane.session.id == sid, what="parent reopened")
    await real_window.runner.drain()
    assert pane.composer.isEnabled() and not banner.isVisible()

    real_window.tree_model.set_phase(child_id, "turn")  # as if the sub-agent were at work
    real_window.session_actions.refresh_banner()
    assert banner.mode == "running" and child_id in banner.text.text()
    real_window.tree_model.set_phase(child_id, "idle")
    real_window.session_actions.refresh_banner()
    assert banner.mode == ""


async def test_session_menu_offers_the_operations_for_the_open_session(
        real_window: MainWindow, real_kernel: Kernel, turns: Turns) -> None:
    real_window.session_actions.session_menu.aboutToShow.emit()
    assert action_texts(real_window.session_actions.session_menu) == ["No session open"]
    await open_session(real_window, real_kernel)
    real_window.session_actions.session_menu.aboutToShow.emit()
    assert action_texts(real_window.session_actions.session_menu) == [
        FORK_SESSION, MERGE_WITH, ROSTER, MEMORY, BRANCH_LATEST, COMPACT_NOW, DELETE]
    assert visible_dialog(ConfirmDialog) is None


async def test_deleting_the_open_session_opens_the_one_beside_it(
        real_window: MainWindow, real_kernel: Kernel, shots: Path) -> None:
    """Not the Welcome page: the session listed below the deleted one opens (above it for the last)."""
    ids = [await open_session(real_window, real_kernel, title=title) for title in ("One", "Two", "Three")]
    tree = real_window.tree_view
    below = tree.neighbour_of(ids[1])
    assert below is not None and below != ids[1]
    await show(real_window, ids[1])
    find_action(tree_menu(real_window, ids[1]), DELETE).trigger()
    (await dialog_of(ConfirmDialog)).confirm_button.click()
    await wait_until(lambda: real_window.tree_model.session(ids[1]) is None, what="deleted")
    await wait_until(lambda: real_window.pane.session is not None and real_window.pane.session.id == below,
                     what="the neighbour opened")
    assert real_window.stack.currentWidget() is not real_window.welcome and tree.current_session_id() == below
    await settle(3)
    real_window.grab().save(str(shots / "delete_lands_on_neighbour.png"))
