"""Screenshots of the main views in the light and the dark theme (saved to $FOYA_SHOTS or /tmp/foya-shots).

Issue 12 "Look and feel": both themes must look right, so every main view is
grabbed in both; the assertions check what a broken theme would get wrong
(dark window with dark text, a palette that did not switch).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QApplication

from foya_desktop.ui import i18n, theme
from foya_desktop.ui.dialogs.preferences import PreferencesDialog
from foya_desktop.ui.main_window import MainWindow
from foya_desktop.ui.timeline.canvas import Canvas
from foya_desktop.ui.timeline.render import RowRenderer, reading_gutter
from foya_desktop.ui.timeline.rows import MessageRow
from tests.ui.conftest import _window
from tests.ui.fakes import FakeKernel
from tests.ui.helpers import reply, settle, thinking, wait_until
from tests.ui.test_screenshots import _rich_session, _seed, _stream


@pytest.fixture(autouse=True)
def _light_afterwards() -> Iterator[None]:
    """The palette is the application's: leave it light for the tests that follow."""
    yield
    theme.apply_theme("light")


def _contrast_ok(window: MainWindow) -> bool:
    pal = window.palette()
    text = pal.color(QPalette.ColorRole.WindowText).lightness()
    back = pal.color(QPalette.ColorRole.Window).lightness()
    return abs(text - back) > 150


@pytest.mark.parametrize("choice", ["light", "dark"])
async def test_screenshot_conversation_in_both_themes(fake_window: MainWindow, fake_kernel: FakeKernel,
                                                      tmp_path: Path, shots: Path, choice: str) -> None:
    """The main window with a conversation, in each theme."""
    fake_window.prefs.update(theme=choice)
    _seed(fake_kernel, tmp_path)
    await fake_window.refresh_connections()
    sid = await _rich_session(fake_window, fake_kernel, tmp_path)
    await _stream(fake_window, fake_kernel, sid)
    await settle()
    assert theme.is_dark() == (choice == "dark") and _contrast_ok(fake_window)
    fake_window.grab().save(str(shots / f"look_session_{choice}.png"))
    fake_window.resize(760, 700)
    await settle(5)
    fake_window.grab().save(str(shots / f"look_session_narrow_{choice}.png"))


@pytest.mark.parametrize("choice", ["light", "dark"])
async def test_screenshot_empty_state_in_both_themes(fake_window: MainWindow, shots: Path, choice: str) -> None:
    """The welcome page a new user sees, in each theme."""
    fake_window.prefs.update(theme=choice)
    await settle()
    assert fake_window.stack.currentWidget() is fake_window.welcome
    assert theme.is_dark() == (choice == "dark") and _contrast_ok(fake_window)
    fake_window.grab().save(str(shots / f"look_empty_{choice}.png"))


@pytest.mark.parametrize("choice", ["light", "dark"])
async def test_screenshot_preferences_switcher_and_help_in_both_themes(
        fake_window: MainWindow, fake_kernel: FakeKernel, tmp_path: Path, shots: Path, choice: str) -> None:
    """The Preferences dialog, the quick switcher (with a query) and the help sheet, in each theme."""
    fake_window.prefs.update(theme=choice)
    _seed(fake_kernel, tmp_path)
    await fake_window.refresh_connections()
    await _rich_session(fake_window, fake_kernel, tmp_path)
    await settle()
    keyboard = fake_window.keyboard
    keyboard.preferences_action.trigger()
    await wait_until(lambda: fake_window.preferences_dialog is not None
                     and fake_window.preferences_dialog.isVisible())
    await settle()
    dialog = fake_window.preferences_dialog
    assert dialog is not None
    dialog.grab().save(str(shots / f"look_preferences_{choice}.png"))
    dialog.reject()
    await fake_window.runner.drain()
    keyboard.switcher_action.trigger()
    await wait_until(lambda: keyboard.switcher is not None and keyboard.switcher.isVisible())
    switcher = keyboard.switcher
    assert switcher is not None
    switcher.input.setText("se")
    await settle()
    assert switcher.list.count() > 0
    fake_window.grab().save(str(shots / f"look_switcher_window_{choice}.png"))
    switcher.grab().save(str(shots / f"look_switcher_{choice}.png"))
    switcher.reject()
    await fake_window.runner.drain()
    keyboard.help_action.trigger()
    await wait_until(lambda: keyboard.help_sheet is not None and keyboard.help_sheet.isVisible())
    await settle()
    sheet = keyboard.help_sheet
    assert sheet is not None
    sheet.grab().save(str(shots / f"look_help_{choice}.png"))
    sheet.reject()
    await fake_window.runner.drain()


@pytest.mark.parametrize("choice", ["light", "dark"])
async def test_screenshot_new_empty_session_in_both_themes(fake_window: MainWindow, fake_kernel: FakeKernel,
                                                           tmp_path: Path, shots: Path, choice: str) -> None:
    """A session with no messages yet: the timeline says what to do next."""
    fake_window.prefs.update(theme=choice)
    _seed(fake_kernel, tmp_path)
    await fake_window.refresh_connections()
    session = await fake_kernel.sessions.create_session(title="Fresh start", roster=["omni", "linus"], default_vp="omni",
                                               connection="openai", model="gpt-4.1")
    fake_window.tree_model.upsert_session(session)
    fake_window.tree_view.select_session(session.id)
    await wait_until(lambda: fake_window.pane.session is not None and fake_window.pane.session.id == session.id)
    await settle(5)
    fake_window.grab().save(str(shots / f"look_new_session_{choice}.png"))


def test_messages_keep_a_readable_width_on_a_wide_window(qapp: object) -> None:
    """Message blocks stop growing at theme.READING_WIDTH and sit centred; clickable areas follow."""
    renderer = RowRenderer()
    row = MessageRow(reply("word " * 400, mid="wide", parts=[thinking("Plan first.")]))

    def walk(width: int) -> Canvas:
        canvas = Canvas(None, 0, 0, width)
        renderer.walk(canvas, row, header=False)
        return canvas

    reading, wide, narrow = walk(theme.READING_WIDTH), walk(1800), walk(420)
    assert wide.y == reading.y < narrow.y  # same line breaks as the reading column; narrow wraps more
    gutter = reading_gutter(1800)
    assert gutter == (1800 - theme.READING_WIDTH) // 2
    (fold, _), = reading.hits  # the reasoning line that unfolds on click
    (wide_fold, _), = wide.hits
    assert wide_fold == fold.translated(gutter, 0)


async def test_composer_buttons_are_comfortable_to_hit(fake_window: MainWindow) -> None:
    """Send, Stop and attach: at least theme.HIT_SIZE (32 px) high, with icons and tooltips."""
    composer = fake_window.pane.composer
    await settle()
    for button in (composer.send_button, composer.stop_button, composer.attach_button):
        assert button.height() >= theme.HIT_SIZE and not button.icon().isNull() and button.toolTip()
    assert composer.attach_button.width() >= theme.HIT_SIZE
    for action in fake_window.toolbar.actions():
        assert not action.icon().isNull() and action.toolTip()


@pytest.mark.parametrize("choice", ["light", "dark"])
async def test_screenshot_chinese_window_and_preferences(fake_kernel: FakeKernel, tmp_path: Path, shots: Path,
                                                         choice: str, qapp: QApplication) -> None:
    """The window and Preferences in 简体中文: the look's own strings are translated, CJK renders."""
    i18n.install("zh_CN", qapp)
    try:
        async with _window(fake_kernel) as window:
            window.prefs.update(theme=choice)
            _seed(fake_kernel, tmp_path)
            await window.refresh_connections()
            await _rich_session(window, fake_kernel, tmp_path)
            await settle(5)
            assert window.keyboard.help_action.text() == "键盘快捷键"
            window.grab().save(str(shots / f"look_zh_session_{choice}.png"))
            dialog = PreferencesDialog(window.prefs.current, [], None, window)
            assert dialog.windowTitle() == "偏好设置"
            dialog.show()
            await settle()
            dialog.grab().save(str(shots / f"look_zh_preferences_{choice}.png"))
            dialog.close()
            dialog.deleteLater()
    finally:
        i18n.install("en", qapp)
