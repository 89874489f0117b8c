"""The start page says what to do next and does it in one click (issue 12: "an empty state that explains
what to do next", and the last sentence's comparison with the peers' start pages).

On the real kernel: "Open a folder…" picks a folder and starts a session bound to it with the
Preferences' defaults (the flow ``foya PATH`` uses) and opens it; the three steps
say what each is for; with no connection, setting one up is the default action, with one, opening a
folder is. Screenshots in both themes and both languages go to ``$FOYA_SHOTS`` (welcome_*.png).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication

from foya_desktop.engine.kernel import Kernel
from foya_desktop.store.home import Home
from foya_desktop.store.preferences import Language, Preferences, PreferencesFile
from foya_desktop.ui import i18n, theme
from foya_desktop.ui.main_window import MainWindow
from tests.ui.conftest import _window
from tests.ui.helpers import pick_folder, settle, wait_until
from tests.ui.test_zh_views import english_in


async def test_open_a_folder_starts_a_session_there_in_one_click(real_window: MainWindow, real_kernel: Kernel,
                                                               tmp_path: Path) -> None:
    window = real_window
    assert window.stack.currentWidget() is window.welcome
    welcome = window.welcome
    assert welcome.open_button.isDefault() and not welcome.connections_button.isDefault(), "a service is ready"
    assert "approval" in welcome.step_task.text(), "step 3 says changes wait for the person"
    folder = tmp_path / "site"
    folder.mkdir()
    welcome.open_button.click()
    picker = await pick_folder(folder)
    assert picker.confirm_button.text() == "Start a session here"
    picker.confirm_button.click()
    await wait_until(lambda: window.pane.session is not None, timeout=10, what="the new session opened")
    session = window.pane.session
    assert session is not None
    stored = await real_kernel.sessions.get_session(session.id)
    assert Path(stored.workdir) == folder.resolve()
    assert window.stack.currentWidget() is window.pane


RUNS = [("en", "light"), ("en", "dark"), ("zh_CN", "light"), ("zh_CN", "dark")]


@pytest.mark.parametrize(("language", "choice"), RUNS, ids=[f"{lang}-{t}" for lang, t in RUNS])
async def test_welcome_page_screenshots(language: Language, choice: str, real_kernel: Kernel, qapp: QApplication,
                                        tmp_path: Path, shots: Path) -> None:
    """The start page in each language and theme: nothing in English in Chinese, steps readable."""
    i18n.install(language, qapp)
    prefs = PreferencesFile(Home(tmp_path / "foya-home"))
    prefs.save(Preferences(language=language, theme=choice))  # type: ignore[arg-type]
    try:
        async with _window(real_kernel, preferences=prefs) as window:
            await settle(3)
            window.grab().save(str(shots / f"welcome_{language}_{choice}.png"))
            if language == "zh_CN":
                assert english_in(window.welcome) == []
            assert window.welcome.step_task.isVisible() and window.welcome.open_button.isVisible()
    finally:
        theme.apply_theme("light")
        i18n.install("en", qapp)
