"""Changing the language in Preferences applies at once: the window is rebuilt in the new language
(ui/window_host.py) with the session, the draft and the geometry kept, the engine untouched; no
English is left in the main views in zh_CN (the check of tests/ui/test_zh_views.py), and no Chinese
in English after switching back."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import shiboken6
from PySide6.QtWidgets import QApplication, QMenu

from foya_desktop.engine.kernel import Kernel
from foya_desktop.store.home import Home
from foya_desktop.store.preferences import PreferencesFile
from foya_desktop.ui import i18n
from foya_desktop.ui.bridge import EngineBridge
from foya_desktop.ui.main_window import MainWindow
from foya_desktop.ui.window_host import WindowHost
from tests.ui.helpers import settle, wait_until
from tests.ui.test_zh_views import _action_texts, english_in, visible_texts

CJK = re.compile(r"[\u4e00-\u9fff]")


@pytest.fixture
async def host(real_kernel: Kernel, tmp_path: Path, qapp: QApplication) -> AsyncIterator[WindowHost]:
    i18n.install("en", qapp)
    prefs = PreferencesFile(Home(tmp_path / "foya-home"))
    running = WindowHost(lambda: MainWindow(real_kernel, EngineBridge(real_kernel.bus), use_tray=False,
                                            preferences=prefs))
    running.window.resize(1100, 750)
    running.window.show()
    await running.window.start()
    try:
        yield running
    finally:
        window = running.window
        await window.runner.drain()
        window.bridge.close()
        window.quit_controller.quitting = True
        window.close()
        window.deleteLater()
        await settle()
        i18n.install("en", qapp)


async def _choose(window: MainWindow, language: str) -> None:
    """Preferences ▸ Language, then OK — as the person does it."""
    window.keyboard.preferences_action.trigger()
    await wait_until(lambda: window.preferences_dialog is not None and window.preferences_dialog.isVisible(),
                     what="the Preferences dialog")
    dialog = window.preferences_dialog
    assert dialog is not None
    dialog.language.setCurrentIndex(dialog.language.findData(language))
    dialog.accept()


def _menu_texts(window: MainWindow) -> list[str]:
    for menu in window.menuBar().findChildren(QMenu):
        menu.aboutToShow.emit()
    return list(_action_texts(window.menuBar().actions()))


async def test_switching_to_chinese_and_back_applies_at_once_and_keeps_the_session(
        host: WindowHost, real_kernel: Kernel, tmp_path: Path, shots: Path) -> None:
    folder = tmp_path / "site"
    folder.mkdir()
    session = await real_kernel.sessions.create_session(title="Login refactor", workdir=str(folder), connection="fake",
                                               model="fake-model")
    first = host.window
    await wait_until(lambda: first.tree_model.session(session.id) is not None, what="tree row")
    first.tree_view.select_session(session.id)
    await wait_until(lambda: first.current_session_id() == session.id, what="the session shown")
    first.pane.composer.input.setPlainText("half-written 草稿")
    first.resize(1234, 777)
    assert first.menuBar().actions()[0].text() == "&File"
    changed: list[object] = []
    host.window_changed.connect(changed.append)

    await _choose(first, "zh_CN")
    await wait_until(lambda: changed, timeout=15, what="the window rebuilt in Chinese")
    zh = host.window
    assert zh is not first and i18n.active() == "zh_CN"
    assert not shiboken6.isValid(first) or not first.isVisible()  # the old window is gone
    await wait_until(lambda: zh.current_session_id() == session.id, what="the same session")
    await zh.runner.drain()
    await settle(5)
    zh.grab().save(str(shots / "live_language_zh.png"))
    assert zh.menuBar().actions()[0].text() == "文件(&F)"
    assert zh.pane.composer.input.toPlainText() == "half-written 草稿"  # the draft is kept
    assert (zh.width(), zh.height()) == (1234, 777)
    data = frozenset({"Login refactor", "half-written 草稿", "Omni", str(folder), "site"})
    problems = [p for p in english_in(zh, data) if "Login refactor" not in p]
    problems += [f"menu: {t!r}" for t in _menu_texts(zh) if english_in_text(t)]
    assert problems == [], "English left after switching to Chinese:\n" + "\n".join(problems)

    changed.clear()
    await _choose(zh, "en")
    await wait_until(lambda: changed, timeout=15, what="the window rebuilt in English")
    en = host.window
    await wait_until(lambda: en.current_session_id() == session.id, what="the same session again")
    await en.runner.drain()
    await settle(5)
    assert en.menuBar().actions()[0].text() == "&File" and i18n.active() == "en"
    chinese = [f"{where}: {text!r}" for where, text in visible_texts(en)
               if CJK.search(text) and "草稿" not in text and "简体中文" not in text]
    chinese += [t for t in _menu_texts(en) if CJK.search(t)]
    assert chinese == [], "Chinese left after switching back to English:\n" + "\n".join(chinese)
    assert PreferencesFile(Home(tmp_path / "foya-home")).load().language == "en"


def english_in_text(text: str) -> bool:
    from tests.ui.test_zh_views import leftovers
    return bool(leftovers(text))
