"""The app's one window, rebuilt in place when the person changes the language.

Why rebuild instead of retranslating widget by widget: every widget reads its
texts once, when it is built (menus, the sidebar, the composer, cards, status
line, tooltips…); a ``LanguageChange`` handler in each of them would be a
second copy of every constructor's texts, and any one forgotten stays in the
old language. Building the window again after the new catalogue is installed
uses the one path that is already complete (tests/ui/test_zh_views.py).

What carries over: the session on screen, the composer's unsent draft, the
window's geometry and maximised state, whether it was shown or in the tray.
The engine keeps running throughout — turns, queues and approvals live in the
kernel; the new window reads them as start-up does. Each window has its own
bridge to the kernel's bus, so the old one's subscriptions end with it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtWidgets import QMainWindow

from foya_desktop.store.preferences import Language
from foya_desktop.ui import i18n
from foya_desktop.ui.main_window import MainWindow


class WindowHost(QObject):
    """Owns the current :class:`MainWindow`; swaps it for a new one on a language change.

    Signals:
        window_changed(object): the new window is up (the old one is being closed).
    """

    window_changed = Signal(object)

    def __init__(self, make: Callable[[], MainWindow], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._make = make
        self.window = self._adopt(make())
        self._switching: asyncio.Task[MainWindow] | None = None

    def _adopt(self, window: MainWindow) -> MainWindow:
        window.language_changed.connect(self._language_changed)
        return window

    def _language_changed(self, language: Language) -> None:
        # after the Preferences flow that asked for it has returned (its dialog is gone)
        QTimer.singleShot(0, lambda: self._start_switch(language))

    def _start_switch(self, language: Language) -> None:
        if self._switching is None or self._switching.done():
            self._switching = asyncio.ensure_future(self.switch_language(language))

    async def switch_language(self, language: Language) -> MainWindow:
        """Install ``language`` and rebuild the window, keeping what the person was looking at."""
        old = self.window
        if old.quit_controller.quitting:
            return old
        await old.runner.drain()
        session_id = old.current_session_id()
        draft = old.pane.composer.input.toPlainText()
        shown = old.isVisible()
        old.memory.save()
        i18n.install(language)
        # the old window's tray icon goes first: never two icons
        old.quit_controller.quitting = True
        if old.quit_controller.tray is not None:
            old.quit_controller.tray.hide()
        new = self._adopt(self._make())
        take_place(new, old)
        if shown:
            new.show()
        await new.start()
        session = new.tree_model.session(session_id) if session_id is not None else None
        if session is not None and new.current_session_id() != session_id:
            await new.show_session(session)
            new.tree_view.select_session(session.id)  # the tree follows (already shown: no reload)
        if draft and new.pane.session is not None:
            new.pane.composer.input.setPlainText(draft)
        await new.runner.drain()
        self.window = new
        self.window_changed.emit(new)
        old.runner.close()
        old.bridge.close()
        await old.tray_agent.close()
        old.hide()
        old.deleteLater()
        return new


def take_place(new: QMainWindow, old: QMainWindow) -> None:
    """Put ``new`` exactly where ``old`` is: geometry, size, position and state (the start frame
    giving way to the real window, a language switch rebuilding it).

    NOTE: ``restoreGeometry`` alone fits the window to the screen; the same window keeps its size.
    """
    new.restoreGeometry(old.saveGeometry())
    new.resize(old.size())
    new.move(old.pos())
    new.setWindowState(old.windowState())
