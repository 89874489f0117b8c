"""The tray agent: the tray icon's state and menu, and notifications.

It listens to the bridge's typed signals (wired in the main window's
``_connect_bridge``), keeps the tray menu listing running sessions and those
waiting for the person, switches the tray icon between idle / working /
needs you, and asks :class:`~foya_desktop.ui.tray.alerts.AlertDesk` whether an
event deserves a notification. Which sessions run or wait is read from the
kernel (the one owner of that state) a moment after the events, once it has
settled — never counted here.

Notifications go through the tray (``QSystemTrayIcon.showMessage``; a click
arrives as ``messageClicked``) on Windows and macOS. On Linux, and without a
tray or with one that cannot show messages, they go to the desktop's
notification service (``org.freedesktop.Notifications`` on the session bus, see
desktop_notifications.py; a click arrives as ``ActionInvoked``, with the
activation token that lets the window come to the front; see
``TRAY_MESSAGES_UNCLICKABLE``), the tray's own message only when there is no
such service. Without a tray, or one that cannot show messages, the
window, which stays on the task bar (see lifecycle.py), asks for attention
there too (``QApplication.alert``).
Every notification shown is also emitted as ``notified`` so tests and the
window can see it.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, QTimer, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QApplication, QMenu, QWidget

from foya_desktop.core.events import (
    ApprovalRequested,
    ApprovalResolved,
    QuestionAnswered,
    QuestionAsked,
    QuestionClosed,
    TurnFinished,
)
from foya_desktop.core.model import Phase
from foya_desktop.store.preferences import Preferences
from foya_desktop.ui.aio import TaskRunner
from foya_desktop.ui.error_text import approval_summary_text, turn_error_text
from foya_desktop.ui.kernel_api import KernelApi
from foya_desktop.ui.lifecycle import QuitController
from foya_desktop.ui.tray.alerts import Alert, AlertDesk, AlertKind, Digest
from foya_desktop.ui.tray.desktop_notifications import DesktopNotifications
from foya_desktop.ui.tray.icon import TrayState, tray_icon

NOTIFY_MS = 10000
"""How long a tray message stays up (hosts may cap it)."""
MAX_LINES = 3
"""Grouped messages name at most this many sessions, then "and N more"."""
TRAY_MESSAGES_UNCLICKABLE = sys.platform.startswith("linux")
"""On Linux a tray's messages go to the desktop's notification service ourselves: Qt's D-Bus tray
(StatusNotifierItem: KDE Plasma, GNOME's AppIndicator) sends them without a "default" action
(it adds one only to Critical messages, qdbustrayicon.cpp), so a click on the bubble only closed
it and ``messageClicked`` never came. Ours has the action, its id and the activation token."""


class TrayAgent(QObject):
    """Tray icon state, tray menu and notifications for one window.

    Signals:
        open_requested(str, str, str): open a session (id) at an approval/question id ("" = just the
            session); the third is the desktop's activation token for the click that asked ("" if none).
        show_requested(): bring the window to the front.
        new_session_requested(): "New session" was picked in the tray menu.
        notified(str, str, str): kind (finished | failed | needs_you | grouped), title, body of a
            notification that was just shown.
        desktop_notified(int): the desktop's notification service showed one (its id).
    """

    open_requested = Signal(str, str, str)
    show_requested = Signal()
    new_session_requested = Signal()
    notified = Signal(str, str, str)
    desktop_notified = Signal(int)

    def __init__(self, quit_controller: QuitController, kernel: KernelApi,
                 session_ids: Callable[[], list[str]], title_of: Callable[[str], str],
                 in_view: Callable[[str], bool],
                 preferences: Callable[[], Preferences], alert_widget: QWidget,
                 runner: TaskRunner | None = None) -> None:
        super().__init__(alert_widget)
        self._quit, self._kernel, self._session_ids = quit_controller, kernel, session_ids
        self._title_of, self._in_view, self._preferences = title_of, in_view, preferences
        self.desk = AlertDesk(in_view, self._enabled)
        self._last: Digest | None = None
        self.state: TrayState = "idle"
        self.running: list[str] = []
        self.waiting: list[tuple[str, str]] = []
        """(session id, approval/question id) for sessions waiting for the person."""
        self._refresh_timer = QTimer(self)
        self._refresh_timer.setSingleShot(True)
        self._refresh_timer.setInterval(0)
        self._refresh_timer.timeout.connect(self.refresh)
        self._alert_widget = alert_widget
        tray = quit_controller.tray
        if tray is not None:
            tray.messageClicked.connect(self.open_last)
        self._runner = runner or TaskRunner(self)
        self.desktop = DesktopNotifications(self)  # connects on the first notification only
        self.desktop.clicked.connect(self._desktop_clicked)
        self._by_desktop_id: dict[int, Digest] = {}
        self.refresh()

    # ---- events (connected by the main window) ------------------------------------------

    def on_phase_changed(self, _session_id: str, _phase: str) -> None:
        self._schedule()

    def on_turn_finished(self, event: TurnFinished) -> None:
        self._deliver(self.desk.turn_finished(
            event.session_id, event.turn_id, event.status,
            turn_error_text(event.error_code, event.error_params, event.error)))
        self._schedule()

    def on_approval_requested(self, event: ApprovalRequested) -> None:
        self._deliver(self.desk.needs_you(event.session_id, event.request_id,
                                          approval_summary_text(event.summary) or event.tool))
        self._schedule()

    def on_question_asked(self, event: QuestionAsked) -> None:
        self._deliver(self.desk.needs_you(event.session_id, event.question_id, event.question, event.turn_id))
        self._schedule()

    def on_settled(self, event: ApprovalResolved | QuestionAnswered | QuestionClosed) -> None:
        self.desk.resolved(event.request_id if isinstance(event, ApprovalResolved) else event.question_id)
        self._schedule()

    def on_session_deleted(self, session_id: str) -> None:
        self.desk.forget(session_id)
        self._schedule()

    def seen(self, session_id: str) -> None:
        """The person is looking at ``session_id``."""
        self.desk.seen(session_id)

    # ---- notifications ------------------------------------------------------------------

    def _enabled(self, kind: AlertKind) -> bool:
        prefs = self._preferences()
        return {"finished": prefs.notify_turn_finished, "failed": prefs.notify_turn_failed,
                "needs_you": prefs.notify_needs_you}[kind]

    def _deliver(self, digest: Digest | None) -> None:
        if digest is None:
            return
        self._last = digest
        kind, title, body = self.describe(digest)
        tray = self._quit.tray
        if tray is not None and tray.supportsMessages() and not TRAY_MESSAGES_UNCLICKABLE:
            self._tray_message(kind, title, body)
        else:
            if tray is None or not tray.supportsMessages():
                QApplication.alert(self._alert_widget)
            self._runner.spawn(self._notify_desktop(digest, kind, title, body),
                               self.tr("Showing a notification"))
        self.notified.emit(kind, title, body)

    def _tray_message(self, kind: str, title: str, body: str) -> None:
        tray = self._quit.tray
        if tray is not None and tray.supportsMessages():
            icon = tray_icon("needs_you" if kind == "needs_you" else "idle")
            tray.showMessage(title, body, icon, NOTIFY_MS)

    async def _notify_desktop(self, digest: Digest, kind: str, title: str, body: str) -> None:
        """Through the desktop's notification service; a grouped message replaces the last bubble.
        Without a service, the tray's own message (if it has one)."""
        grouped = len(digest.alerts) > 1
        notification_id = await self.desktop.notify(title, body, self.tr("Open"), replace=grouped)
        if notification_id:
            self._by_desktop_id[notification_id] = digest
            self.desktop_notified.emit(notification_id)
        else:
            self._tray_message(kind, title, body)

    def _desktop_clicked(self, notification_id: int, activation_token: str) -> None:
        digest = self._by_desktop_id.get(notification_id)
        if digest is not None:
            newest = digest.newest
            self.open_requested.emit(newest.session_id, newest.target, activation_token)

    async def close(self) -> None:
        """Leave the session bus (if a notification ever joined it)."""
        await self.desktop.close()

    def describe(self, digest: Digest) -> tuple[str, str, str]:
        """Kind, title and body of the message for ``digest``."""
        alerts = digest.alerts
        if len(alerts) == 1:
            alert = alerts[0]
            return alert.kind, self._headline(alert), self._line(alert, with_title=True)
        lines = [self._headline(a) + " — " + self._title(a.session_id) for a in alerts[:MAX_LINES]]
        if len(alerts) > MAX_LINES:
            lines.append(self.tr("+%n more", "", len(alerts) - MAX_LINES))
        return "grouped", self.tr("Updates in Foya: %n", "", len(alerts)), "\n".join(lines)

    def _headline(self, alert: Alert) -> str:
        if alert.kind == "finished":
            return self.tr("Reply finished")
        if alert.kind == "failed":
            return self.tr("Reply failed")
        return self.tr("Foya needs you")

    def _line(self, alert: Alert, *, with_title: bool) -> str:
        title = self._title(alert.session_id)
        detail = alert.detail.strip().splitlines()[0][:160] if alert.detail.strip() else ""
        return f"{title}: {detail}" if detail and with_title else title

    def _title(self, session_id: str) -> str:
        return self._title_of(session_id) or self.tr("Untitled session")

    def open_last(self) -> None:
        """A notification was clicked: open the newest alert's session at its card."""
        if self._last is not None:
            newest = self._last.newest
            self.open_requested.emit(newest.session_id, newest.target, "")

    # ---- tray icon and menu -------------------------------------------------------------

    def _schedule(self) -> None:
        if not self._refresh_timer.isActive():
            self._refresh_timer.start()

    def refresh(self) -> None:
        """Read who runs and who waits from the kernel; update icon, tooltip and menu."""
        running, waiting = [], []
        for sid in self._session_ids():
            if self._kernel.turns.phase(sid) != Phase.IDLE:
                running.append(sid)
            pending = [a.request_id for a in self._kernel.asks.pending_approvals(sid)] + [
                q.question_id for q in self._kernel.asks.pending_questions(sid)]
            if pending:
                waiting.append((sid, pending[0]))
        self.running, self.waiting = running, waiting
        self.state = "needs_you" if waiting else "working" if running else "idle"
        tray = self._quit.tray
        if tray is None:
            return
        tray.setIcon(tray_icon(self.state))
        if not self._quit.quitting:
            parts = ["Foya"]
            if running:
                parts.append(self.tr("running: %n", "", len(running)))
            if waiting:
                parts.append(self.tr("waiting for you: %n", "", len(waiting)))
            tray.setToolTip(" — ".join(parts))
        menu = tray.contextMenu()
        if menu is not None:
            self.fill_menu(menu)

    def fill_menu(self, menu: QMenu) -> None:
        """Show · Running · Waiting for you · New session · Quit."""
        menu.clear()
        menu.addAction(self.tr("Show Foya"), self.show_requested.emit)
        if self.running:
            menu.addSection(self.tr("Running"))
            for sid in self.running:
                self._session_action(menu, sid, "")
        if self.waiting:
            menu.addSection(self.tr("Waiting for you"))
            for sid, target in self.waiting:
                self._session_action(menu, sid, target)
        menu.addSeparator()
        menu.addAction(self.tr("New session"), self.new_session_requested.emit)
        menu.addSeparator()
        menu.addAction(self._quit.quit_action)
        menu.addAction(self._quit.quit_now_action)

    def _session_action(self, menu: QMenu, session_id: str, target: str) -> QAction:
        action = menu.addAction(self._title(session_id))
        action.setData(session_id)
        action.triggered.connect(lambda: self.open_requested.emit(session_id, target, ""))
        return action


class WindowWatcher(QObject):
    """Tells the tray agent when the window comes into view, so what is on screen counts as seen."""

    def __init__(self, agent: TrayAgent, current: Callable[[], str | None], parent: QObject) -> None:
        super().__init__(parent)
        self._agent, self._current = agent, current
        parent.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() in (QEvent.Type.WindowActivate, QEvent.Type.Show, QEvent.Type.WindowStateChange):
            sid = self._current()
            if sid is not None:
                self._agent.seen(sid)
        return False


