"""What closing the window means, and quitting without losing a running turn.

Policy (DESIGN §1: "keeps running from the system tray"):

* With a system tray, closing the window hides it; the engine keeps working
  and the tray icon brings the window back. Quit is an explicit action
  (menu, tray, Ctrl+Q).
* Quitting never cuts a turn off: the window hides and the app stays alive
  until every session is idle and its queue is empty (queued messages are
  in-process state and would otherwise be lost), then it closes the kernel
  and exits. The tray offers "Quit now", which stops running turns — they
  are persisted as interrupted — and exits.
* Without a tray, closing the window is the same as Quit.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu, QSystemTrayIcon, QWidget

from foya_desktop.core.model import Phase
from foya_desktop.ui.aio import TaskRunner
from foya_desktop.ui.icons import app_icon
from foya_desktop.ui.kernel_api import KernelApi

POLL_SECONDS = 0.25


class QuitController(QObject):
    """Owns the tray icon and the finish-then-quit sequence.

    Signals:
        finished(): nothing is running any more; the app may close the kernel and exit.
        progress(str): what quitting is waiting for, in words.
    """

    finished = Signal()
    progress = Signal(str)

    def __init__(self, kernel: KernelApi, session_ids: Callable[[], list[str]], runner: TaskRunner,
                 window: QWidget, *, use_tray: bool | None = None) -> None:
        super().__init__(window)
        self._kernel, self._session_ids, self._runner, self._window = kernel, session_ids, runner, window
        self.quitting = False
        self._finished = False
        self._told_about_tray = False
        available = QSystemTrayIcon.isSystemTrayAvailable() if use_tray is None else use_tray
        self.tray = self._make_tray() if available else None

    def _make_tray(self) -> QSystemTrayIcon:
        tray = QSystemTrayIcon(app_icon(), self)
        tray.setToolTip(self.tr("Foya"))
        menu = QMenu(self._window)
        menu.addAction(self.tr("Show Foya"), self.show_window)
        menu.addSeparator()
        menu.addAction(self.tr("Quit"), self.request_quit)
        self.quit_now_action = QAction(self.tr("Quit now (stop running turns)"), menu)
        self.quit_now_action.triggered.connect(self.force_quit)
        self.quit_now_action.setVisible(False)
        menu.addAction(self.quit_now_action)
        tray.setContextMenu(menu)
        tray.activated.connect(lambda reason: self.show_window()
                               if reason == QSystemTrayIcon.ActivationReason.Trigger else None)
        tray.show()
        return tray

    def show_window(self) -> None:
        """Bring the window back from the tray."""
        if not self.quitting:
            self._window.showNormal()
            self._window.raise_()
            self._window.activateWindow()

    def window_closing(self) -> bool:
        """Called from ``closeEvent``; returns True if the close should be ignored (hidden to tray)."""
        if self.quitting:
            return False
        if self.tray is None:
            self.request_quit()
            return True
        self._window.hide()
        if not self._told_about_tray:
            self._told_about_tray = True
            self.tray.showMessage(
                self.tr("Foya is still running"),
                self.tr("Replies continue in the background. Use Quit from this icon's menu to exit."),
                app_icon(),
                4000,
            )
        return True

    def busy_sessions(self) -> list[str]:
        """Sessions with a running turn or queued messages."""
        return [sid for sid in self._session_ids()
                if self._kernel.phase(sid) != Phase.IDLE or self._kernel.queue(sid)]

    def request_quit(self) -> None:
        """Quit once everything running has finished and been stored."""
        if self.quitting:
            return
        self.quitting = True
        self._window.hide()
        self._runner.spawn(self._finish(), self.tr("Quitting"))

    def force_quit(self) -> None:
        """Stop running turns (kept as interrupted) and quit right away."""
        self.quitting = True
        self._window.hide()
        self._runner.spawn(self._stop_all(), self.tr("Stopping turns"))

    async def _finish(self) -> None:
        while (busy := self.busy_sessions()) and not self._finished:
            self._report(self.tr("Finishing %n running session(s) before quitting…", "", len(busy)))
            await asyncio.sleep(POLL_SECONDS)
        self._emit_finished()

    async def _stop_all(self) -> None:
        await asyncio.gather(*(self._kernel.stop(sid, keep_queue=False) for sid in self.busy_sessions()))
        self._emit_finished()

    def _emit_finished(self) -> None:
        if not self._finished:
            self._finished = True
            self.finished.emit()

    def _report(self, text: str) -> None:
        self.progress.emit(text)
        if self.tray is not None:
            self.tray.setToolTip(text)
            self.quit_now_action.setVisible(True)
