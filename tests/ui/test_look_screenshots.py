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

from foya_desktop.ui import theme
from foya_desktop.ui.main_window import MainWindow
from tests.ui.fakes import FakeKernel
from tests.ui.helpers import settle, wait_until
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
    session = await fake_kernel.create_session(title="Fresh start", roster=["omni", "linus"], default_vp="omni",
                                               connection="openai", model="gpt-4.1")
    fake_window.tree_model.upsert_session(session)
    fake_window.tree_view.select_session(session.id)
    await wait_until(lambda: fake_window.pane.session is not None and fake_window.pane.session.id == session.id)
    await settle(5)
    fake_window.grab().save(str(shots / f"look_new_session_{choice}.png"))
