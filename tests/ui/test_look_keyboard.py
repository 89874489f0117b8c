"""Issue 12 "Look and feel" — keyboard, window state and Preferences, on the real kernel.

Keys are typed with QTest into the focused widget of a real window, so a test
passes only if Qt's shortcut machinery (or the Esc filter) reaches the real
action; restore and persistence use two windows on one data folder.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QWidget

from foya_desktop.core.events import TurnFinished, VPStatus
from foya_desktop.core.model import ApprovalMode
from foya_desktop.engine.kernel import Kernel
from foya_desktop.store.home import Home
from foya_desktop.store.preferences import PreferencesFile
from foya_desktop.ui import theme
from foya_desktop.ui.bridge import EngineBridge
from foya_desktop.ui.dialogs.new_session import NewSessionDialog, NewSessionValues
from foya_desktop.ui.dialogs.preferences import PreferencesDialog
from foya_desktop.ui.help_sheet import HelpSheet
from foya_desktop.ui.main_window import MainWindow
from foya_desktop.ui.quick_switcher import QuickSwitcher, score
from tests.fakeprovider import FakeProviderServer, Reply
from tests.ui.helpers import settle, wait_until

Ctrl, Alt = Qt.KeyboardModifier.ControlModifier, Qt.KeyboardModifier.AltModifier


@asynccontextmanager
async def window_on(kernel: Kernel, home: Path) -> AsyncIterator[MainWindow]:
    """A window on ``kernel`` whose preferences live in ``home`` (like the app), started and shown."""
    bridge = EngineBridge(kernel.bus)
    window = MainWindow(kernel, bridge, use_tray=False, preferences=PreferencesFile(Home(home)))
    window.show()
    window.activateWindow()
    await window.start()
    await window.runner.drain()
    try:
        yield window
    finally:
        await window.runner.drain()
        bridge.close()
        window.quit_controller.quitting = True
        window.close()
        gone: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        window.destroyed.connect(lambda *_: None if gone.done() else gone.set_result(None))
        window.deleteLater()
        await asyncio.wait_for(gone, 5)


def _home(kernel: Kernel) -> Path:
    return kernel.store.home.root


def _shown[W: QWidget](kind: type[W]) -> W | None:
    return next((w for w in QApplication.topLevelWidgets() if isinstance(w, kind) and w.isVisible()), None)


async def _sessions(kernel: Kernel, *titles: str) -> list[str]:
    return [(await kernel.sessions.create_session(title=t, connection="fake")).id for t in titles]


async def test_escape_in_the_composer_stops_the_running_reply(real_kernel: Kernel,
                                                              fake_provider: FakeProviderServer) -> None:
    """Esc stops the running reply (and only when nothing else used the key)."""
    fake_provider.script(Reply(text="word " * 400, chunk_size=4, delay_per_chunk=0.02))
    (sid,) = await _sessions(real_kernel, "Long answer")
    async with window_on(real_kernel, _home(real_kernel)) as window:
        await wait_until(lambda: window.pane.session is not None and window.pane.session.id == sid)
        finished: list[TurnFinished] = []
        window.bridge.turn_finished.connect(finished.append)
        composer = window.pane.composer
        composer.input.setPlainText("Tell me a long story")
        composer.input.setFocus()
        QTest.keyClick(composer.input, Qt.Key.Key_Return)
        await wait_until(window.keyboard.can_stop, timeout=10, what="the reply to start")
        QTest.keyClick(composer.input, Qt.Key.Key_Escape)
        await wait_until(lambda: len(finished) == 1, timeout=15, what="the stopped turn")
        assert finished[0].status == "stopped"
        assert not window.keyboard.can_stop()


async def test_ctrl_n_ctrl_comma_f1_ctrl_slash_and_ctrl_f_open_their_dialogs(real_kernel: Kernel) -> None:
    """Ctrl+N new session, Ctrl+, preferences, F1 / Ctrl+/ the help sheet, Ctrl+F find — typed."""
    await _sessions(real_kernel, "Find here")
    async with window_on(real_kernel, _home(real_kernel)) as window:
        target = window.tree_view
        target.setFocus()
        for key, mods, kind in ((Qt.Key.Key_N, Ctrl, NewSessionDialog), (Qt.Key.Key_Comma, Ctrl, PreferencesDialog),
                                (Qt.Key.Key_F1, Qt.KeyboardModifier.NoModifier, HelpSheet),
                                (Qt.Key.Key_Slash, Ctrl, HelpSheet)):
            window.activateWindow()
            target.setFocus()
            await settle()
            QTest.keyClick(target, key, mods)
            await wait_until(lambda: _shown(kind) is not None, what=f"{kind.__name__}")  # noqa: B023
            dialog: QWidget | None = _shown(kind)
            assert isinstance(dialog, (NewSessionDialog, PreferencesDialog, HelpSheet))
            dialog.reject()
            await window.runner.drain()
        window.activateWindow()
        window.pane.composer.input.setFocus()
        await settle()
        QTest.keyClick(window.pane.composer.input, Qt.Key.Key_F, Ctrl)  # Ctrl+F still finds
        await wait_until(window.find_actions.find_bar.isVisible, what="the find bar")
        sheet_rows = {what: keys for keys, what in window.keyboard.shortcut_groups()[1][1]}
        assert sheet_rows["Go to session or command"] == "Ctrl+K"


async def test_help_sheet_lists_every_shortcut_the_issue_names(real_kernel: Kernel) -> None:
    """The help sheet lists the shortcuts from the actions themselves."""
    async with window_on(real_kernel, _home(real_kernel)) as window:
        rows = [r for _, group in window.keyboard.shortcut_groups() for r in group]
        keys = " | ".join(k for k, _ in rows)
        for needed in ("Esc", "Ctrl+F", "Ctrl+N", "Ctrl+K", "Ctrl+,", "Alt+Up", "Alt+Down", "F1", "Ctrl+/",
                       "Enter"):
            assert needed in keys, needed


async def test_alt_up_and_down_step_through_the_sessions_in_tree_order(real_kernel: Kernel) -> None:
    """Alt+Up / Alt+Down open the previous / next session of the tree."""
    await _sessions(real_kernel, "One", "Two", "Three")
    async with window_on(real_kernel, _home(real_kernel)) as window:
        order = window.keyboard.ordered_sessions()
        assert len(order) == 3
        window.tree_view.select_session(order[0])
        await wait_until(lambda: window.pane.session is not None and window.pane.session.id == order[0])
        window.pane.composer.input.setFocus()
        QTest.keyClick(window.pane.composer.input, Qt.Key.Key_Down, Alt)
        await wait_until(lambda: window.pane.session is not None and window.pane.session.id == order[1])
        QTest.keyClick(window.pane.composer.input, Qt.Key.Key_Down, Alt)
        await wait_until(lambda: window.pane.session is not None and window.pane.session.id == order[2])
        QTest.keyClick(window.pane.composer.input, Qt.Key.Key_Down, Alt)  # the end: stays
        await settle()
        assert window.pane.session is not None and window.pane.session.id == order[2]
        QTest.keyClick(window.pane.composer.input, Qt.Key.Key_Up, Alt)
        await wait_until(lambda: window.pane.session is not None and window.pane.session.id == order[1])


async def test_ctrl_k_finds_a_session_and_a_command(real_kernel: Kernel) -> None:
    """Ctrl+K: typing a few letters and Enter opens that session; a command entry runs the command."""
    ids = await _sessions(real_kernel, "Release notes", "Tokenizer study")
    async with window_on(real_kernel, _home(real_kernel)) as window:
        window.tree_view.select_session(ids[0])
        await wait_until(lambda: window.pane.session is not None and window.pane.session.id == ids[0])
        window.tree_view.setFocus()
        QTest.keyClick(window.tree_view, Qt.Key.Key_K, Ctrl)
        await wait_until(lambda: _shown(QuickSwitcher) is not None, what="the switcher")
        switcher = _shown(QuickSwitcher)
        assert switcher is not None
        QTest.keyClicks(switcher.input, "toknz")
        assert switcher.shown_titles()[0] == "Tokenizer study"
        QTest.keyClick(switcher.input, Qt.Key.Key_Return)
        await wait_until(lambda: window.pane.session is not None and window.pane.session.id == ids[1])
        await window.runner.drain()
        window.activateWindow()
        window.tree_view.setFocus()
        await settle()
        QTest.keyClick(window.tree_view, Qt.Key.Key_K, Ctrl)
        await wait_until(lambda: _shown(QuickSwitcher) is not None, what="the switcher again")
        switcher = _shown(QuickSwitcher)
        assert switcher is not None
        QTest.keyClicks(switcher.input, "keyboard shortcuts")
        assert switcher.shown_titles()[0] == "Keyboard shortcuts"
        QTest.keyClick(switcher.input, Qt.Key.Key_Return)
        await wait_until(lambda: _shown(HelpSheet) is not None, what="the help sheet from the switcher")
        sheet = _shown(HelpSheet)
        assert sheet is not None
        sheet.reject()
        await window.runner.drain()


def test_fuzzy_score_prefers_substrings_and_word_starts() -> None:
    """The switcher's ranking: substring > scattered letters; no match is None."""
    assert score("notes", "Release notes") is not None
    assert score("rn", "Release notes") is not None
    assert score("xyz", "Release notes") is None
    assert (score("notes", "Release notes") or 0) > (score("rnts", "Release notes") or 0)


async def test_send_key_preference_switches_enter_and_ctrl_enter(real_kernel: Kernel,
                                                                fake_provider: FakeProviderServer) -> None:
    """Preferences.send_key: Ctrl+Enter sends and Enter breaks the line, and back."""
    fake_provider.script(Reply(text="ok"))
    (sid,) = await _sessions(real_kernel, "Keys")
    async with window_on(real_kernel, _home(real_kernel)) as window:
        await wait_until(lambda: window.pane.session is not None and window.pane.session.id == sid)
        window.prefs.update(send_key="ctrl_enter")
        box = window.pane.composer.input
        box.setFocus()
        QTest.keyClicks(box, "first line")
        QTest.keyClick(box, Qt.Key.Key_Return)
        QTest.keyClicks(box, "second line")
        assert box.toPlainText() == "first line\nsecond line"
        assert "Ctrl+Enter to send" in box.placeholderText()
        sent: list[str] = []
        window.pane.sent.connect(sent.append)
        QTest.keyClick(box, Qt.Key.Key_Return, Ctrl)
        await wait_until(lambda: sent == [sid], what="the message sent with Ctrl+Enter")
        assert box.toPlainText() == ""
        window.prefs.update(send_key="enter")
        QTest.keyClicks(box, "a")
        QTest.keyClick(box, Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier)
        assert box.toPlainText() == "a\n"
    assert PreferencesFile(Home(_home(real_kernel))).load().send_key == "enter"


async def test_geometry_splitter_and_last_session_are_restored_in_a_second_window(
        real_kernel: Kernel) -> None:
    """Window geometry, splitter sizes and the last open session survive closing the window."""
    ids = await _sessions(real_kernel, "Older", "Newer", "Newest")
    home = _home(real_kernel)
    async with window_on(real_kernel, home) as first:
        first.resize(780, 560)  # within the offscreen screen (800×800): Qt clamps to the screen
        first.splitter.setSizes([200, 580])
        first.tree_view.select_session(ids[0])  # not the newest: the default would open "Newest"
        await wait_until(lambda: first.pane.session is not None and first.pane.session.id == ids[0])
        await settle()
        sizes, size = first.splitter.sizes(), (first.width(), first.height())
        first.close()  # what saves (quitting = True in the helper: close is not quitting)
    stored = PreferencesFile(Home(home)).load()
    assert stored.last_session_id == ids[0] and stored.window_geometry and list(stored.splitter_sizes) == sizes
    async with window_on(real_kernel, home) as second:
        await wait_until(lambda: second.pane.session is not None, what="a session shown")
        assert second.pane.session is not None and second.pane.session.id == ids[0]
        assert (second.width(), second.height()) == size == (780, 560)
        assert second.splitter.sizes() == sizes


async def test_preferences_dialog_saves_and_applies(real_kernel: Kernel, tmp_path: Path) -> None:
    """Theme applies at once; notifications, defaults and send key are stored for the tray and new sessions."""
    home = _home(real_kernel)
    folder = tmp_path / "proj"
    folder.mkdir()
    async with window_on(real_kernel, home) as window:
        window.keyboard.preferences_action.trigger()
        await wait_until(lambda: window.preferences_dialog is not None and window.preferences_dialog.isVisible())
        dialog = window.preferences_dialog
        assert dialog is not None
        assert dialog.folder.text() == str(home) and dialog.folder.toolTip() == str(home)  # shown, not edited
        assert dialog.open_folder.isEnabled()
        dialog.theme.setCurrentIndex(dialog.theme.findData("dark"))
        dialog.notify_finished.setChecked(False)
        dialog.connection.setCurrentIndex(dialog.connection.findData("fake"))
        dialog.model.setText("fake-large")
        dialog.approval.setCurrentIndex(dialog.approval.findData(str(ApprovalMode.READ_ONLY)))
        dialog.send_ctrl_enter.setChecked(True)
        dialog.language.setCurrentIndex(dialog.language.findData("zh_CN"))
        dialog.accept()
        await window.runner.drain()
        try:
            assert theme.is_dark()
            assert window.pane.composer.input.send_key == "ctrl_enter"
            stored = PreferencesFile(Home(home)).load()
            assert (stored.theme, stored.notify_turn_finished, stored.notify_turn_failed) == ("dark", False, True)
            assert (stored.default_connection, stored.default_model, stored.default_approval,
                    stored.send_key, stored.language) == ("fake", "fake-large", "read_only", "ctrl_enter", "zh_CN")
            session = await window._create_session(_values(str(folder)))
            assert session is not None
            assert (session.connection, session.model, session.approval_mode) == (
                "fake", "fake-large", ApprovalMode.READ_ONLY)
        finally:
            window.prefs.update(theme="light")
    assert PreferencesFile(Home(home)).load().theme == "light"


def _values(workdir: str) -> NewSessionValues:
    return NewSessionValues(title="From defaults", workdir=workdir, roster=("omni",), default_vp="omni",
                            connection="fake", model="fake-model")


async def test_system_theme_is_followed_live_and_a_manual_choice_wins(
        real_kernel: Kernel, monkeypatch: pytest.MonkeyPatch) -> None:
    """Theme "system" follows QStyleHints.colorScheme() when it changes; "light" ignores the system.

    NOTE: the offscreen platform cannot change its colour scheme, so the desktop's answer is
    replaced and the real ``colorSchemeChanged`` signal is emitted.
    """
    hints = QGuiApplication.styleHints()
    assert hints is not None
    async with window_on(real_kernel, _home(real_kernel)) as window:
        try:
            assert window.prefs.current.theme == "system" and not theme.is_dark()
            monkeypatch.setattr(theme, "system_prefers_dark", lambda: True)
            hints.colorSchemeChanged.emit(Qt.ColorScheme.Dark)
            assert theme.is_dark() and window.look.dark
            window.prefs.update(theme="light")
            assert not theme.is_dark()
            hints.colorSchemeChanged.emit(Qt.ColorScheme.Dark)
            assert not theme.is_dark()  # a manual choice is not overridden by the system
        finally:
            monkeypatch.undo()
            window.prefs.update(theme="system")
            theme.apply_theme("light")


async def test_narrow_window_wraps_the_status_strip_instead_of_clipping_it(real_kernel: Kernel) -> None:
    """Known defect: "0 tool executions" was cut to "0 too" at narrow widths. Now the figures wrap and
    the composer's pickers (the status line's settings once) take their own line, and the window can be
    made narrow."""
    (sid,) = await _sessions(real_kernel, "Narrow")
    async with window_on(real_kernel, _home(real_kernel)) as window:
        await wait_until(lambda: window.pane.session is not None and window.pane.session.id == sid)
        window.pane.on_vp_status(VPStatus(sid, "t1", "omni", "running", requests=1, tool_runs=0))
        window.resize(1200, 700)
        await settle(5)
        status = window.pane.status
        assert not status.stacked()
        window.resize(760, 700)
        await settle(5)
        assert window.width() == 760, "the window could not be made narrow"
        assert window.pane.composer.stacked(), "the composer's pickers take their own line"
        block = status.vp_panel.blocks["omni"]
        label = block.figures_label
        assert "0 tool executions" in label.text()
        assert label.wordWrap() and label.height() >= label.heightForWidth(label.width())
        assert label.geometry().right() <= block.width()
