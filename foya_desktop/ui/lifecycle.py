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
* Without a tray (GNOME without the AppIndicator extension), closing the
  window quits, as GNOME apps do when their last window closes. With
  something running it says so plainly and asks: quit as soon as the running
  replies are finished and stored (the window stays up, saying what it waits
  for, until then), or keep the window open. No "small window" or minimising:
  GNOME has no minimise button and no tray to restore from, and a window that
  went out of sight with work still running is what people there do not
  expect. The window never hides without a tray: a hidden app with no icon
  has no way back.
* The first close to the tray says once (ever, remembered in the
  preferences' ``told_about_tray``) that Foya keeps running there.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import os
from collections.abc import Callable

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QAbstractButton, QMenu, QMessageBox, QSystemTrayIcon, QWidget

from foya_desktop.core.model import Phase
from foya_desktop.store.preferences import Preferences, PreferencesStore
from foya_desktop.ui.aio import TaskRunner, run_dialog
from foya_desktop.ui.icons import app_icon
from foya_desktop.ui.kernel_api import KernelApi

POLL_SECONDS = 0.25


def bring_to_front(window: QWidget, activation_token: str = "") -> None:
    """Show ``window`` (also when hidden to the tray), unminimise it, raise it and make it active.

    ``activation_token`` is the launch's ``XDG_ACTIVATION_TOKEN`` (Wayland) or
    ``DESKTOP_STARTUP_ID`` (X11 startup notification) handed over by a second
    launch: the compositor lets the app that holds it take the focus. Qt's
    Wayland plugin reads ``XDG_ACTIVATION_TOKEN`` from the environment when
    asked to activate; it is removed again right after.
    """
    if activation_token:
        os.environ["XDG_ACTIVATION_TOKEN"] = activation_token
    state = window.windowState() & ~Qt.WindowState.WindowMinimized
    window.setWindowState(state | Qt.WindowState.WindowActive)
    window.show()
    window.raise_()
    window.activateWindow()
    handle = window.windowHandle()
    if handle is not None:
        handle.requestActivate()
    os.environ.pop("XDG_ACTIVATION_TOKEN", None)  # used once; commands the agent runs must not inherit it


class QuitController(QObject):
    """Owns the tray icon and the finish-then-quit sequence.

    Signals:
        finished(): nothing is running any more; the app may close the kernel and exit.
        progress(str): what quitting is waiting for, in words.
    """

    finished = Signal()
    progress = Signal(str)
    told_about_tray = Signal(str, str)
    """title, text: the once-only "still running in the tray" message was shown."""

    def __init__(self, kernel: KernelApi, session_ids: Callable[[], list[str]], runner: TaskRunner,
                 window: QWidget, *, use_tray: bool | None = None,
                 preferences: PreferencesStore | None = None) -> None:
        super().__init__(window)
        self._kernel, self._session_ids, self._runner, self._window = kernel, session_ids, runner, window
        self._preferences = preferences
        self.quitting = False
        self._finished = False
        self._asking = False
        self.close_question: QMessageBox | None = None
        """The no-tray close question while it is open (tests answer it)."""
        self._told_about_tray = self._prefs().told_about_tray
        available = QSystemTrayIcon.isSystemTrayAvailable() if use_tray is None else use_tray
        self.quit_action = QAction(self.tr("Quit"), self)
        self.quit_action.triggered.connect(self.request_quit)
        self.quit_now_action = QAction(self.tr("Quit now (stop running turns)"), self)
        self.quit_now_action.triggered.connect(self.force_quit)
        self.quit_now_action.setVisible(False)
        self.tray = self._make_tray() if available else None

    def _prefs(self) -> Preferences:
        return self._preferences.load() if self._preferences is not None else Preferences()

    def _make_tray(self) -> QSystemTrayIcon:
        tray = QSystemTrayIcon(app_icon(), self)
        tray.setToolTip(self.tr("Foya"))
        menu = QMenu(self._window)  # filled by the TrayAgent (ui/tray/agent.py)
        menu.addAction(self.tr("Show Foya"), self.show_window)
        menu.addSeparator()
        menu.addAction(self.quit_action)
        menu.addAction(self.quit_now_action)
        tray.setContextMenu(menu)
        tray.activated.connect(lambda reason: self.show_window()
                               if reason == QSystemTrayIcon.ActivationReason.Trigger else None)
        tray.show()
        return tray

    def show_window(self, activation_token: str = "") -> None:
        """Bring the window to the front: back from the tray, unminimised, raised and active.

        A maximised window stays maximised (``showNormal`` would restore its size). Window
        managers may refuse focus to an app in the background ("focus stealing prevention");
        ``requestActivate`` on X11 and an activation token on Wayland — a second launch's, or the
        one the notification service sent for a click (``activation_token``; see
        :func:`bring_to_front`) — are how the request is made in their terms.
        """
        if not self.quitting:
            bring_to_front(self._window, activation_token)

    def window_closing(self) -> bool:
        """Called from ``closeEvent``; returns True if the close should be ignored (hidden to tray)."""
        if self.quitting:
            return False
        if self.tray is None:
            if not self.busy_sessions():
                self.request_quit()
            elif not self._asking:
                self._runner.spawn(self._ask_without_tray(), self.tr("Closing the window"))
            return True
        self._window.hide()
        if not self._told_about_tray:
            self._told_about_tray = True
            self._remember_told()
            title = self.tr("Foya is still running")
            text = self.tr("Replies continue in the background. Click this icon to bring the window "
                           "back; use Quit from its menu to exit.")
            self.tray.showMessage(title, text, app_icon(), 6000)
            self.told_about_tray.emit(title, text)
        return True

    def _remember_told(self) -> None:
        if self._preferences is None:
            return
        # a read-only data folder: the message may come again next time, nothing worse
        with contextlib.suppress(OSError):
            self._preferences.save(dataclasses.replace(self._preferences.load(), told_about_tray=True))

    def make_close_question(self, busy: int) -> tuple[QMessageBox, QAbstractButton, QAbstractButton]:
        """The question asked when the window closes with work running and no tray to keep it in:
        the box, its "Quit when finished" and its "Keep the window open" buttons."""
        box = QMessageBox(QMessageBox.Icon.Question, "Foya", self.tr(
            "There is no system tray here, so closing the window quits Foya.\n\n"
            "Sessions still running: %n. Foya quits as soon as they have finished and their replies "
            "are stored; the window stays open until then.", "", busy), parent=self._window)
        quit_button = box.addButton(self.tr("Quit when finished"), QMessageBox.ButtonRole.AcceptRole)
        keep_button = box.addButton(self.tr("Keep the window open"), QMessageBox.ButtonRole.RejectRole)
        box.setDefaultButton(quit_button)
        box.setEscapeButton(keep_button)
        box.setObjectName("close-without-tray")
        self.close_question = box
        return box, quit_button, keep_button

    async def _ask_without_tray(self) -> None:
        self._asking = True
        try:
            box, quit_button, _keep = self.make_close_question(len(self.busy_sessions()))
            await run_dialog(box)
            clicked = box.clickedButton()
            if clicked is quit_button:
                self.request_quit()
            self.close_question = None
            box.deleteLater()
        finally:
            self._asking = False

    def busy_sessions(self) -> list[str]:
        """Sessions with a running turn or queued messages."""
        return [sid for sid in self._session_ids()
                if self._kernel.turns.phase(sid) != Phase.IDLE or self._kernel.queue.items(sid)]

    def request_quit(self) -> None:
        """Quit once everything running has finished and been stored."""
        if self.quitting:
            return
        self.quitting = True
        if self.tray is not None or not self.busy_sessions():
            self._window.hide()
        self._runner.spawn(self._finish(), self.tr("Quitting"))

    def force_quit(self) -> None:
        """Stop running turns (kept as interrupted) and quit right away."""
        self.quitting = True
        self._window.hide()
        self._runner.spawn(self._stop_all(), self.tr("Stopping turns"))

    async def _finish(self) -> None:
        while (busy := self.busy_sessions()) and not self._finished:
            self._report(self.tr("Finishing running sessions before quitting (%n left)…", "", len(busy)))
            await asyncio.sleep(POLL_SECONDS)
        self._emit_finished()

    async def _stop_all(self) -> None:
        turns = self._kernel.turns
        await asyncio.gather(*(turns.stop(sid, keep_queue=False) for sid in self.busy_sessions()))
        self._emit_finished()

    def _emit_finished(self) -> None:
        if not self._finished:
            self._finished = True
            self.finished.emit()

    def _report(self, text: str) -> None:
        self.progress.emit(text)
        self.quit_now_action.setVisible(True)
        if self.tray is not None:
            self.tray.setToolTip(text)
