"""Fork entries in the real window on the real kernel: the conversation's top-right icon, the
sidebar menu, and "Fork from this turn" under completed replies (Y15, Y20)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QMenu

from foya_desktop.core.model import Phase
from foya_desktop.engine.kernel import Kernel
from foya_desktop.ui.main_window import MainWindow
from foya_desktop.ui.ops.merge_dialog import MergeDialog
from foya_desktop.ui.ops.session_actions import BRANCH_HERE, FORK_SESSION, FORK_TURN, MERGE_WITH
from tests.fakeprovider import FakeProviderServer, Reply
from tests.helpers.agent_script import agent_responder
from tests.ui.helpers import dialog_of, settle, wait_until
from tests.ui.ops_helpers import (
    Turns,
    action_texts,
    find_action,
    open_session,
    row_of,
    say,
    texts,
    tree_menu,
)


@pytest.fixture
def turns(real_kernel: Kernel, fake_provider: FakeProviderServer) -> Turns:
    fake_provider.responder = agent_responder
    return Turns(real_kernel)


async def _opened_other(window: MainWindow, sid: str) -> str:
    await wait_until(lambda: window.pane.session is not None and window.pane.session.id != sid,
                     what="the fork opened")
    await window.runner.drain()
    assert window.pane.session is not None
    return window.pane.session.id


async def test_fork_icon_sidebar_and_fork_from_this_turn(
        real_window: MainWindow, real_kernel: Kernel, turns: Turns, tmp_path: Path, shots: Path) -> None:
    sid = await open_session(real_window, real_kernel, title="Plans")
    await say(real_window, real_kernel, turns, sid, "hello")
    await say(real_window, real_kernel, turns, sid, "second thoughts")
    button = real_window.session_actions.fork_button
    assert button.isVisible() and button.isEnabled()
    # top right of the conversation, in the title row beside Settings… and Outline
    assert button.geometry().left() > real_window.pane.width() * 0.7
    real_window.grab().save(str(shots / "fork_icon.png"))

    menu = real_window.pane.timeline_view.menu_for_row(row_of(real_window, "assistant", "reply to: hello"))
    assert [t for t in action_texts(menu) if t in (BRANCH_HERE, FORK_TURN)] == [BRANCH_HERE, FORK_TURN]
    assert FORK_TURN not in action_texts(real_window.pane.timeline_view.menu_for_row(
        row_of(real_window, "user", "hello")))
    find_action(menu, FORK_TURN).trigger()
    first = await _opened_other(real_window, sid)
    await wait_until(lambda: texts(real_window, "user") == ["hello"], what="fork history")
    assert (await real_kernel.sessions.get_session(first)).title == "Plans (fork)"

    real_window.tree_view.select_session(sid)
    await wait_until(lambda: real_window.pane.session is not None and real_window.pane.session.id == sid)
    await real_window.runner.drain()
    assert FORK_SESSION in action_texts(tree_menu(real_window, sid))
    find_action(tree_menu(real_window, sid), FORK_SESSION).trigger()
    second = await _opened_other(real_window, sid)
    await wait_until(lambda: texts(real_window, "user") == ["hello", "second thoughts"], what="whole fork")

    real_window.tree_view.select_session(sid)
    await wait_until(lambda: real_window.pane.session is not None and real_window.pane.session.id == sid)
    await real_window.runner.drain()
    button.click()
    third = await _opened_other(real_window, sid)
    assert len({first, second, third}) == 3
    assert len(await real_kernel.history.history_page(sid)) == 4  # the source is untouched


async def test_fork_from_this_turn_is_not_offered_on_the_generating_turn(
        real_window: MainWindow, real_kernel: Kernel, fake_provider: FakeProviderServer, turns: Turns) -> None:
    sid = await open_session(real_window, real_kernel, title="Live")
    await say(real_window, real_kernel, turns, sid, "hello")
    fake_provider.responder = lambda body: Reply(text="slow " * 200, chunk_size=4, delay_per_chunk=0.02)
    await real_kernel.turns.send(sid, "go on")
    await wait_until(lambda: real_kernel.turns.phase(sid) == Phase.TURN)
    await wait_until(lambda: "go on" in texts(real_window, "user"), what="the active input shown")
    await settle()
    menu = real_window.pane.timeline_view.menu_for_row(row_of(real_window, "assistant", "reply to: hello"))
    assert FORK_TURN in action_texts(menu)  # that turn ended before the active input
    await real_kernel.turns.stop(sid, keep_queue=False)


async def test_merge_with_previews_then_opens_the_merged_session(
        real_window: MainWindow, real_kernel: Kernel, turns: Turns, shots: Path) -> None:
    """Y22/Y24 in the window: "Merge with…" in the sidebar menu, a preview of every turn's origin
    and order, then the new session opens; both sources stay."""
    sid = await open_session(real_window, real_kernel, title="Plan A")
    await say(real_window, real_kernel, turns, sid, "shared start")
    fork = await real_kernel.lifecycle.fork(sid)
    await real_kernel.sessions.update_session(fork.id, title="Plan B")
    await wait_until(lambda: real_window.tree_model.session(fork.id) is not None, what="fork in tree")
    await say(real_window, real_kernel, turns, sid, "idea from A")
    await say(real_window, real_kernel, turns, fork.id, "idea from B")
    real_window.tree_view.select_session(sid)
    await wait_until(lambda: real_window.pane.session is not None and real_window.pane.session.id == sid)
    menu = tree_menu(real_window, sid)
    merge_menu = find_action(menu, MERGE_WITH).menu()
    assert isinstance(merge_menu, QMenu)
    find_action(merge_menu, "Plan B").trigger()
    dialog = await dialog_of(MergeDialog)
    body = dialog.body.text()
    assert body.index("shared start") < body.index("idea from A") < body.index("idea from B")
    assert "1 common turn once, then 1 from A and 1 from B" in body
    await settle(3)
    dialog.grab().save(str(shots / "merge_preview.png"))
    dialog.confirm_button.click()
    merged = await _opened_other(real_window, sid)
    assert merged != fork.id
    await wait_until(lambda: texts(real_window, "user") == ["shared start", "idea from A", "idea from B"],
                     what="merged history")
    assert len(await real_kernel.history.history_page(sid)) == 4 and len(await real_kernel.history.history_page(fork.id)) == 4


async def test_a_branch_of_a_long_session_shows_its_history_and_outlives_the_source(
        real_window: MainWindow, real_kernel: Kernel, turns: Turns, shots: Path) -> None:
    """Copy-on-write history in the window (issue 14): "Branch from here" on a 1,000-message session
    opens the branch with the newest page of what it inherited; deleting the source leaves the
    branch's timeline as it was (Y16: the two evolve independently)."""
    from foya_desktop.core.ids import new_id
    from foya_desktop.core.messages import Message, TextPart
    from foya_desktop.store.history import append_messages

    sid = await open_session(real_window, real_kernel, title="Long")
    history = [Message(new_id("msg"), sid, "user" if i % 2 == 0 else "assistant",
                       (TextPart(f"{'question' if i % 2 == 0 else 'answer'} {i // 2}"),),
                       speaker=None if i % 2 == 0 else "omni", turn_id=f"t{i // 2}")
               for i in range(1000)]
    await real_kernel.store.write(append_messages, sid, history)
    await say(real_window, real_kernel, turns, sid, "hello")
    menu = real_window.pane.timeline_view.menu_for_row(row_of(real_window, "assistant", "reply to: hello"))
    find_action(menu, BRANCH_HERE).trigger()
    branch = await _opened_other(real_window, sid)
    await wait_until(lambda: texts(real_window, "user")[-2:] == ["question 499", "hello"], what="branch shown")
    shown = texts(real_window, "user")
    real_window.grab().save(str(shots / "branch_of_a_long_session.png"))

    await real_kernel.lifecycle.delete_session(sid)
    await wait_until(lambda: real_window.tree_model.session(sid) is None, what="source gone")
    assert real_window.pane.session is not None and real_window.pane.session.id == branch
    assert texts(real_window, "user") == shown
    assert len(await real_kernel.history.history_page(branch, limit=2000)) == 1002


async def test_merging_sessions_that_share_nothing_says_so(
        real_window: MainWindow, real_kernel: Kernel, turns: Turns, shots: Path) -> None:
    """Two sessions that are not forks of each other: the preview names no "0 common turns"."""
    sid = await open_session(real_window, real_kernel, title="Plan A")
    await say(real_window, real_kernel, turns, sid, "idea from A")
    other = await open_session(real_window, real_kernel, title="Plan C")
    await say(real_window, real_kernel, turns, other, "idea from C")
    real_window.tree_view.select_session(sid)
    await wait_until(lambda: real_window.pane.session is not None and real_window.pane.session.id == sid)
    merge_menu = find_action(tree_menu(real_window, sid), MERGE_WITH).menu()
    assert isinstance(merge_menu, QMenu)
    find_action(merge_menu, "Plan C").trigger()
    dialog = await dialog_of(MergeDialog)
    body = dialog.body.text()
    assert "No common turns: 1 from A and 1 from B" in body and "0 common" not in body
    await settle(3)
    dialog.grab().save(str(shots / "merge_preview_nothing_common.png"))
    dialog.reject()
