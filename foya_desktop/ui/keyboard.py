"""The window's keyboard: stop, quick switcher, preferences, session stepping, the help sheet.

Issue 12 asks for: Esc stops the running reply, Ctrl+F finds (``ui/reading``),
Ctrl+N new session (the window's action), Ctrl+K quick switcher over sessions
and commands, Ctrl+, preferences, Alt+Up/Down previous/next session, the send
key configurable, and a help sheet listing them (F1, Ctrl+/, Help menu).

Why Esc is not a QAction shortcut: a window-wide Esc shortcut would take the
key from every widget that uses it (the find bar, an inline rename, a
completion popup). Here Esc stops a reply only when nothing on the way to
the window used it — the window sees the key press last.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, QPoint, Qt, QTimer
from PySide6.QtGui import QAction, QKeyEvent, QKeySequence
from PySide6.QtWidgets import QMainWindow, QMenu

from foya_desktop.store.preferences import Preferences
from foya_desktop.ui.about import show_about
from foya_desktop.ui.aio import run_dialog
from foya_desktop.ui.help_sheet import HelpSheet, Row, action_rows
from foya_desktop.ui.icons import icon
from foya_desktop.ui.quick_switcher import Choice, QuickSwitcher, command_choice, menu_actions
from foya_desktop.ui.sessions.tree_model import SESSION_ID_ROLE
from foya_desktop.ui.window_parts import WindowParts


class KeyboardActions(QObject):
    """The actions and key handling of issue 12's keyboard section, added to one window.

    ``open_preferences`` is the window's Preferences flow (a coroutine factory),
    started on the window's runner.
    """

    def __init__(self, window: WindowParts, main: QMainWindow, file_menu: QMenu,
                 open_preferences: Callable[[], object]) -> None:
        super().__init__(main)
        self._window, self._main = window, main
        self.switcher: QuickSwitcher | None = None
        self.help_sheet: HelpSheet | None = None
        self.stop_action = self._action(self.tr("Stop the reply"), "stop", [])
        self.stop_action.triggered.connect(self.stop_reply)
        self.switcher_action = self._action(self.tr("Go to session or command…"), "switcher", ["Ctrl+K"])
        self.switcher_action.triggered.connect(
            lambda: window.runner.spawn(self.quick_switcher_flow(), self.tr("Quick switcher")))
        self.preferences_action = self._action(self.tr("Preferences…"), "preferences", ["Ctrl+,"])
        self.preferences_action.setMenuRole(QAction.MenuRole.PreferencesRole)
        self.preferences_action.triggered.connect(
            lambda: window.runner.spawn(open_preferences(), self.tr("Preferences")))  # type: ignore[arg-type]
        self.previous_action = self._action(self.tr("Previous session"), "up", ["Alt+Up"])
        self.previous_action.triggered.connect(lambda: self.step_session(-1))
        self.next_action = self._action(self.tr("Next session"), "down", ["Alt+Down"])
        self.next_action.triggered.connect(lambda: self.step_session(1))
        self.help_action = self._action(self.tr("Keyboard shortcuts"), "keyboard", ["F1", "Ctrl+/"])
        self.help_action.triggered.connect(lambda: window.runner.spawn(self.help_flow(), self.tr("Help")))
        self._menus(file_menu)
        main.installEventFilter(self)
        window.prefs.changed.connect(self._apply)
        self._apply(window.prefs.current)

    def _action(self, text: str, glyph: str, keys: list[str]) -> QAction:
        action = QAction(icon(glyph), text, self._main)
        action.setShortcuts([QKeySequence(k) for k in keys])
        action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        self._main.addAction(action)  # works with the menu bar hidden, too
        return action

    def _menus(self, file_menu: QMenu) -> None:
        before = next((a for a in file_menu.actions() if a.isSeparator()), None)
        file_menu.insertAction(before, self.preferences_action) if before else file_menu.addAction(
            self.preferences_action)
        go = self._main.menuBar().addMenu(self.tr("&Go"))
        for action in (self.switcher_action, self.previous_action, self.next_action):
            go.addAction(action)
        go.addSeparator()
        go.addAction(self.stop_action)
        self.stop_action.setText(self.tr("Stop the reply") + "\t" + "Esc")
        help_menu = self._main.menuBar().addMenu(self.tr("&Help"))
        help_menu.addAction(self.help_action)
        self.about_action = help_menu.addAction(self.tr("About Foya"))
        self.about_action.setMenuRole(QAction.MenuRole.AboutRole)
        self.about_action.triggered.connect(lambda: show_about(self._main))

    def _apply(self, prefs: Preferences) -> None:
        self._window.pane.composer.set_send_key(prefs.send_key)

    # ---- Esc -------------------------------------------------------------------------------

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Esc that reached the window unused stops the reply on screen."""
        if (watched is self._main and event.type() == QEvent.Type.KeyPress and isinstance(event, QKeyEvent)
                and event.key() == Qt.Key.Key_Escape and not event.modifiers() and self.can_stop()):
            self.stop_action.trigger()
            return True
        return super().eventFilter(watched, event)

    def can_stop(self) -> bool:
        """A reply runs in the session on screen (the composer's Stop is enabled)."""
        pane = self._window.pane
        return pane.session is not None and pane.composer.stop_button.isEnabled()

    def stop_reply(self) -> None:
        """Stop like the Stop button: the queue is kept (paused)."""
        if self.can_stop():
            self._window.pane.composer.stop_requested.emit(True)

    # ---- sessions --------------------------------------------------------------------------

    def ordered_sessions(self) -> list[str]:
        """Session ids in the order the tree shows them (top to bottom)."""
        model, out = self._window.tree_model, []
        stack = [model.index(r, 0) for r in reversed(range(model.rowCount()))]
        while stack:
            index = stack.pop()
            sid = index.data(SESSION_ID_ROLE)
            if sid:
                out.append(str(sid))
            stack.extend(model.index(r, 0, index) for r in reversed(range(model.rowCount(index))))
        return list(dict.fromkeys(out))

    def step_session(self, delta: int) -> None:
        """Alt+Up / Alt+Down: the previous or next session in the tree (stops at the ends)."""
        order = self.ordered_sessions()
        if not order:
            return
        shown = self._window.pane.session
        if shown is None or shown.id not in order:
            target = order[0] if delta > 0 else order[-1]
        else:
            at = order.index(shown.id) + delta
            if not 0 <= at < len(order):
                return
            target = order[at]
        self._window.tree_view.select_session(target)

    # ---- the quick switcher and the help sheet --------------------------------------------

    def _commands(self) -> list[tuple[str, QAction]]:
        """(menu path, action) of every enabled menu command except the switcher itself."""
        entries = self._main.menuBar().actions()
        for entry in entries:
            menu = entry.menu()
            if isinstance(menu, QMenu):
                menu.aboutToShow.emit()  # menus filled on demand (Session) fill themselves now
        return [(label, a) for label, a in menu_actions(entries) if a is not self.switcher_action]

    def _session_choices(self) -> list[Choice]:
        model = self._window.tree_model
        names = {p.id: p.name for p in model.projects()}
        choices = []
        for sid in self.ordered_sessions():
            session = model.session(sid)
            if session is not None:
                where = names.get(session.project_id or "", "") if session.project_id else ""
                choices.append(Choice(session.title or self.tr("Untitled session"), where, session_id=sid))
        return choices

    async def quick_switcher_flow(self) -> None:
        """Open the switcher; open the chosen session or trigger the chosen command."""
        if self.switcher is not None:
            self.switcher.raise_()
            return
        commands = [command_choice(label, a) for label, a in self._commands()]
        dialog = QuickSwitcher(self._session_choices(), commands, self._main)
        self.switcher = dialog
        width = max(560, min(720, self._main.width() // 2))
        dialog.resize(width, 420)
        top = self._main.mapToGlobal(QPoint((self._main.width() - width) // 2, 72))
        dialog.move(top)
        try:
            await run_dialog(dialog)
        finally:
            self.switcher = None
            dialog.deleteLater()
        chosen = dialog.chosen
        if chosen is None:
            return
        if chosen.session_id:
            self._window.tree_view.select_session(chosen.session_id)
        elif chosen.action is not None:
            QTimer.singleShot(0, chosen.action.trigger)  # after the switcher is gone

    def shortcut_groups(self) -> list[tuple[str, list[Row]]]:
        """What the help sheet lists, from the actions' real shortcuts."""
        send = self._window.prefs.current.send_key
        composer: list[Row] = [
            ("Enter" if send == "enter" else "Ctrl+Enter", self.tr("Send the message")),
            ("Shift+Enter" if send == "enter" else "Enter", self.tr("New line")),
            ("Esc", self.tr("Stop the reply (the queue is kept)")),
            ("@", self.tr("Address a VP by name")),
        ]
        go = action_rows([self.switcher_action, self.previous_action, self.next_action])
        commands = [a for _, a in self._commands() if a not in (self.previous_action, self.next_action)]
        return [(self.tr("Writing"), composer), (self.tr("Moving around"), go),
                (self.tr("Commands"), action_rows([*commands, self.help_action]))]

    async def help_flow(self) -> None:
        """Show the help sheet (one at a time)."""
        if self.help_sheet is not None:
            self.help_sheet.raise_()
            return
        sheet = HelpSheet(self.shortcut_groups(), self._main)
        self.help_sheet = sheet
        try:
            await run_dialog(sheet)
        finally:
            self.help_sheet = None
            sheet.deleteLater()
