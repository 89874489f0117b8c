"""The tray agent on the real kernel: closing keeps replies running (said once), the tray menu
lists running and waiting sessions, notifications for turns that finish, fail or wait while their
session is not in view, a click opens the session at its card; and without a tray the window never
disappears with no way back.

The HTTP fake model (tests/fakeprovider) streams slowly where a test needs a turn "mid-way".
"""

from __future__ import annotations

import asyncio
import dataclasses
import os
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from foya_desktop.engine.kernel import Kernel
from foya_desktop.store.home import Home
from foya_desktop.store.preferences import PreferencesFile
from foya_desktop.ui.bridge import EngineBridge
from foya_desktop.ui.main_window import MainWindow
from foya_desktop.ui.tray.icon import TrayState, tray_icon
from tests.fakeprovider import FakeProviderServer, Fault, Reply, ToolCallSpec
from tests.ui.helpers import Events, open_session, settle, show, wait_until

SLOW = Reply(text="The long answer arrives slowly. " * 3, chunk_size=6, delay_per_chunk=0.05)


class _Shown:
    """Every notification the tray agent showed: (kind, title, body)."""

    def __init__(self, window: MainWindow) -> None:
        self.items: list[tuple[str, str, str]] = []
        window.tray_agent.notified.connect(lambda *item: self.items.append(item))


async def _window(kernel: Kernel, prefs: PreferencesFile, *, use_tray: bool) -> MainWindow:
    window = MainWindow(kernel, EngineBridge(kernel.bus), use_tray=use_tray, preferences=prefs)
    window.resize(1000, 700)
    window.show()
    await window.start()
    await window.runner.drain()
    return window


async def _dispose(window: MainWindow) -> None:
    await window.runner.drain()
    window.bridge.close()
    window.quit_controller.quitting = True
    if window.quit_controller.tray is not None:
        window.quit_controller.tray.hide()
    window.close()
    window.deleteLater()
    await settle()


@pytest.fixture
def prefs(tmp_path: Path) -> PreferencesFile:
    return PreferencesFile(Home(tmp_path / "foya-home"))


@pytest.fixture
async def tray_window(real_kernel: Kernel, prefs: PreferencesFile) -> AsyncIterator[MainWindow]:
    window = await _window(real_kernel, prefs, use_tray=True)
    yield window
    await _dispose(window)


def _send(window: MainWindow, text: str) -> None:
    window.pane.composer.input.setPlainText(text)
    window.pane.send()


def _icon_shows(window: MainWindow, state: TrayState) -> bool:
    """Whether the tray icon on screen is the picture for ``state`` (issue 12: activity and "needs you")."""
    tray = window.quit_controller.tray
    assert tray is not None
    return tray.icon().pixmap(32, 32).toImage() == tray_icon(state).pixmap(32, 32).toImage()


def _menu_texts(window: MainWindow) -> list[str]:
    tray = window.quit_controller.tray
    assert tray is not None and tray.contextMenu() is not None
    return [a.text() for a in tray.contextMenu().actions()]


async def test_closing_mid_turn_keeps_it_running_says_so_once_and_notifies_when_it_finishes(
        tray_window: MainWindow, real_kernel: Kernel, fake_provider: FakeProviderServer,
        prefs: PreferencesFile) -> None:
    fake_provider.script(SLOW, Reply(text="Second."))
    events = Events(real_kernel)
    told: list[tuple[str, str]] = []
    tray_window.quit_controller.told_about_tray.connect(lambda *m: told.append(m))
    shown = _Shown(tray_window)
    sid = await open_session(tray_window, real_kernel, title="Long answer")
    _send(tray_window, "take your time")
    await wait_until(lambda: tray_window.tray_agent.running == [sid], what="the turn running")
    assert tray_window.tray_agent.state == "working" and _icon_shows(tray_window, "working")
    assert not _icon_shows(tray_window, "idle") and not _icon_shows(tray_window, "needs_you")
    texts = _menu_texts(tray_window)
    assert texts[:3] == ["Show Foya", "Running", "Long answer"] and "New session" in texts and "Quit" in texts
    tray_window.close()
    assert not tray_window.isVisible()
    assert [t for t, _ in told] == ["Foya is still running"] and prefs.load().told_about_tray
    (finished,) = await events.turns(1, sid)
    assert finished.status == "completed"
    await wait_until(lambda: shown.items, what="a notification")
    assert shown.items == [("finished", "Reply finished", "Long answer")]
    await settle()
    assert (tray_window.tray_agent.state, tray_window.tray_agent.running) == ("idle", [])
    assert _icon_shows(tray_window, "idle")
    # a click on the message brings the window back with the session
    tray = tray_window.quit_controller.tray
    assert tray is not None
    tray.messageClicked.emit()
    await wait_until(tray_window.isVisible, what="window back")
    assert tray_window.current_session_id() == sid
    # closing again does not repeat the "still running" message (remembered in the preferences)
    tray_window.close()
    await settle()
    assert len(told) == 1


async def test_told_about_tray_is_remembered_across_runs(
        real_kernel: Kernel, prefs: PreferencesFile) -> None:
    prefs.save(dataclasses.replace(prefs.load(), told_about_tray=True))
    window = await _window(real_kernel, prefs, use_tray=True)
    told: list[object] = []
    window.quit_controller.told_about_tray.connect(lambda *m: told.append(m))
    window.close()
    await settle()
    assert not window.isVisible() and told == []
    await _dispose(window)


async def test_a_waiting_approval_in_another_session_notifies_and_opens_at_its_card(
        tray_window: MainWindow, real_kernel: Kernel, fake_provider: FakeProviderServer, tmp_path: Path) -> None:
    project = tmp_path / "proj"
    project.mkdir()
    fake_provider.script(Reply(tool_calls=[ToolCallSpec("write_file", {"path": "notes.md", "content": "hi"})]),
                         Reply(text="Written."))
    shown = _Shown(tray_window)
    other = await open_session(tray_window, real_kernel, title="Elsewhere")
    sid = await open_session(tray_window, real_kernel, title="Writer", workdir=str(project),
                             approval_mode="ask")
    _send(tray_window, "write the notes")
    await show(tray_window, other)  # the person looks at another session
    await wait_until(lambda: shown.items, timeout=10, what="needs-you notification")
    kind, title, body = shown.items[0]
    assert (kind, title) == ("needs_you", "Foya needs you") and body.startswith("Writer: ")
    await settle()
    agent = tray_window.tray_agent
    assert agent.state == "needs_you" and [s for s, _ in agent.waiting] == [sid]
    assert _icon_shows(tray_window, "needs_you")
    texts = _menu_texts(tray_window)
    assert "Waiting for you" in texts and texts[texts.index("Waiting for you") + 1] == "Writer"
    tray = tray_window.quit_controller.tray
    assert tray is not None
    tray.messageClicked.emit()
    await wait_until(lambda: tray_window.current_session_id() == sid, what="the waiting session opened")
    await tray_window.runner.drain()
    card = tray_window.pane.attention.card
    assert card is not None and card.isVisible()
    card.buttons["once"].click()
    await wait_until((project / "notes.md").exists, what="approved write")
    await wait_until(lambda: agent.state == "idle", what="tray idle again")
    assert len(shown.items) == 1  # the finish of the session in view is not notified


async def test_a_waiting_question_in_another_session_is_listed_notified_and_opens_at_its_card(
        tray_window: MainWindow, real_kernel: Kernel, fake_provider: FakeProviderServer) -> None:
    """The question half of "waiting for the person": listed in the tray menu, one notification,
    and clicking it opens the session with the question card visible at its call."""
    from foya_desktop.ui.cards.question_card import QuestionCard

    fake_provider.script(
        Reply(tool_calls=[ToolCallSpec("ask_user", {"question": "Which database?", "choices": ["SQLite", "Postgres"]})]),
        Reply(text="SQLite it is."))
    shown = _Shown(tray_window)
    other = await open_session(tray_window, real_kernel, title="Elsewhere")
    sid = await open_session(tray_window, real_kernel, title="Asker")
    _send(tray_window, "set up storage")
    await show(tray_window, other)
    await wait_until(lambda: shown.items, timeout=10, what="needs-you notification for the question")
    kind, title, body = shown.items[0]
    assert (kind, title) == ("needs_you", "Foya needs you") and body.startswith("Asker: ")
    await settle()
    agent = tray_window.tray_agent
    assert agent.state == "needs_you" and [s for s, _ in agent.waiting] == [sid]
    texts = _menu_texts(tray_window)
    assert "Waiting for you" in texts and texts[texts.index("Waiting for you") + 1] == "Asker"
    tray = tray_window.quit_controller.tray
    assert tray is not None
    tray.messageClicked.emit()
    await wait_until(lambda: tray_window.current_session_id() == sid, what="the asking session opened")
    await tray_window.runner.drain()

    def visible_card() -> QuestionCard | None:
        return next((c for c in tray_window.pane.cards.cards.values()
                     if isinstance(c, QuestionCard) and c.isVisible() and c.choice_buttons), None)
    await wait_until(lambda: visible_card() is not None, what="the question card in view")
    card = visible_card()
    assert card is not None
    assert tray_window.pane.timeline_view.viewport().rect().intersects(card.geometry())  # in view
    next(b for b in card.choice_buttons if b.text() == "SQLite").click()
    await wait_until(lambda: agent.state == "idle", what="tray idle again")
    assert len(shown.items) == 1


async def test_each_kind_can_be_turned_off(
        tray_window: MainWindow, real_kernel: Kernel, fake_provider: FakeProviderServer,
        prefs: PreferencesFile) -> None:
    tray_window.prefs.update(notify_turn_finished=False)  # as the Preferences dialog does
    fake_provider.script(Reply(text="Quiet."), Reply(text="Loud."))
    events = Events(real_kernel)
    shown = _Shown(tray_window)
    sid = await open_session(tray_window, real_kernel, title="Quiet")
    tray_window.close()
    await tray_window.runner.drain()
    # the window is hidden: a message sent from the CLI-like API runs in the background
    await real_kernel.turns.send(sid, "hello")
    await events.turns(1, sid)
    await settle()
    assert shown.items == []
    assert not prefs.load().notify_turn_finished  # saved
    tray_window.prefs.update(notify_turn_finished=True)
    await real_kernel.turns.send(sid, "again")
    await events.turns(2, sid)
    await wait_until(lambda: shown.items, what="notification back on")
    assert shown.items[0][0] == "finished"


async def test_without_a_tray_closing_mid_turn_asks_and_never_hides(
        real_kernel: Kernel, fake_provider: FakeProviderServer, prefs: PreferencesFile) -> None:
    fake_provider.script(SLOW)
    window = await _window(real_kernel, prefs, use_tray=False)
    events = Events(real_kernel)
    finished: list[int] = []
    window.quit_controller.finished.connect(lambda: finished.append(1))
    sid = await open_session(window, real_kernel, title="No tray")
    _send(window, "slowly")
    await wait_until(lambda: window.quit_controller.busy_sessions() == [sid], what="running")
    window.close()
    await wait_until(lambda: window.quit_controller.close_question is not None, what="the question")
    box = window.quit_controller.close_question
    assert box is not None and "no system tray" in box.text() and "Sessions still running: 1." in box.text()
    assert "Foya quits as soon as" in box.text() and "the window stays open until then" in box.text()
    # GNOME has no tray and no minimise button: no "small window" offer, just quit or keep it open
    assert sorted(b.text() for b in box.buttons()) == ["Keep the window open", "Quit when finished"]
    assert box.defaultButton().text() == "Quit when finished"
    keep = next(b for b in box.buttons() if b.text() == "Keep the window open")
    keep.click()
    await wait_until(lambda: window.quit_controller.close_question is None, what="the question closed")
    assert window.isVisible() and not window.isMinimized() and finished == []
    assert not window.quit_controller.quitting
    window.close()
    await wait_until(lambda: window.quit_controller.close_question is not None, what="asked again")
    box = window.quit_controller.close_question
    assert box is not None
    next(b for b in box.buttons() if b.text() == "Quit when finished").click()
    await settle()
    assert window.isVisible() and window.quit_controller.quitting  # visible while it finishes
    await events.turns(1, sid)
    await wait_until(lambda: finished == [1], what="quit after the turn was stored")
    await _dispose(window)


async def test_a_failed_turn_while_hidden_is_notified_with_the_reason(
        tray_window: MainWindow, real_kernel: Kernel, fake_provider: FakeProviderServer) -> None:
    fake_provider.script(Reply(fault=Fault.status(401)), Reply(fault=Fault.status(401)))
    events = Events(real_kernel)
    shown = _Shown(tray_window)
    sid = await open_session(tray_window, real_kernel, title="Broken key")
    tray_window.close()
    await real_kernel.turns.send(sid, "hello")
    (turn,) = await events.turns(1, sid)
    assert turn.status == "error"
    await wait_until(lambda: shown.items, what="failure notification")
    kind, title, body = shown.items[0]
    assert (kind, title) == ("failed", "Reply failed") and body.startswith("Broken key: ")
    assert "401" in body or "rejected" in body


async def _second_launch(address: str, token: str) -> str:
    """``hand_over`` from another process, as ``foya`` does, with the desktop's activation token."""
    import sys
    code = ("from PySide6.QtCore import QCoreApplication; app = QCoreApplication([]); "
            "from foya_desktop.ui.tray.single_instance import hand_over; "
            f"print(hand_over({address!r}, ''))")
    env = {**os.environ, "XDG_ACTIVATION_TOKEN": token} if token else dict(os.environ)
    process = await asyncio.create_subprocess_exec(sys.executable, "-c", code, env=env,
                                                   stdout=asyncio.subprocess.PIPE)
    out, _ = await process.communicate()
    return out.decode().strip()


async def test_a_second_launch_brings_the_window_back_unminimised_maximised_kept_and_active(
        tray_window: MainWindow, tmp_path: Path) -> None:
    """Qt's view of "comes to the front" (tests/ui/test_front_xvfb.py checks the X server's): from
    minimised (a maximised window stays maximised) and from the tray; the launch's activation
    token travels over the local socket and is handed to Qt."""
    from PySide6.QtCore import Qt

    from foya_desktop.ui.tray.single_instance import InstanceServer

    server = InstanceServer(str(tmp_path / "front.sock"), tray_window)
    assert server.listen()
    server.activated.connect(tray_window.handle_launch)
    tray_window.showMaximized()
    tray_window.showMinimized()
    await wait_until(tray_window.isMinimized, what="minimised")
    launched: list[tuple[str, str]] = []
    server.activated.connect(lambda *a: launched.append(a))
    assert await _second_launch(server.address, "token-123") == "True"
    assert launched == [("", "token-123")]
    assert "XDG_ACTIVATION_TOKEN" not in os.environ  # Qt took it when activating; no child inherits it
    await wait_until(lambda: tray_window.isVisible() and not tray_window.isMinimized()
                     and tray_window.isActiveWindow(), what="visible, unminimised, active")
    assert tray_window.windowState() & Qt.WindowState.WindowMaximized
    # closed to the tray: hidden; a second launch brings it back and active
    tray_window.close()
    await wait_until(lambda: not tray_window.isVisible(), what="hidden to the tray")
    assert await _second_launch(server.address, "") == "True"
    # NOTE: offscreen keeps the QWindow focused while its widget is hidden, so no focus change
    # re-activates the widget; the QWindow is what Qt calls active (X11: tests/ui/test_front_xvfb.py)
    await wait_until(lambda: tray_window.isVisible() and not tray_window.isMinimized()
                     and tray_window.windowHandle().isActive(), what="back from the tray")
    server.close()
