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
from tests.ui.helpers import settle
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
