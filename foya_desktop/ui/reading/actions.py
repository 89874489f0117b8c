"""Finding things again: Ctrl+F in the session, Ctrl+Shift+F across every session.

Installed into the window from outside (like the session operations), so the
pane and the main window only gain one line each: the find bar sits above the
composer, the search window opens from the Edit menu, and a hit opens its
session at the message.
"""

from __future__ import annotations

import asyncio

from PySide6.QtCore import QT_TRANSLATE_NOOP, QObject
from PySide6.QtGui import QAction, QKeySequence

from foya_desktop.ui.reading.find_bar import FindBar
from foya_desktop.ui.reading.jump import reveal
from foya_desktop.ui.reading.search_window import SearchWindow
from foya_desktop.ui.window_parts import WindowParts

FIND = str(QT_TRANSLATE_NOOP("FindActions", "Find in session…"))
SEARCH_ALL = str(QT_TRANSLATE_NOOP("FindActions", "Search all sessions…"))


class FindActions(QObject):
    """The find bar, the search window and their shortcuts.

    Signals:
        (none; the bar and the window have their own)
    """

    def __init__(self, window: WindowParts) -> None:
        super().__init__(window.pane)
        self._w = window
        self.find_bar = FindBar(window.pane, window.kernel, window.speakers, window.runner)
        window.pane.insert_above_composer(self.find_bar)
        self.search_window: SearchWindow | None = None
        self.find_action = QAction(self.tr(FIND), self)
        self.find_action.setShortcut(QKeySequence(QKeySequence.StandardKey.Find))
        self.find_action.triggered.connect(self._open_find)
        self.search_action = QAction(self.tr(SEARCH_ALL), self)
        self.search_action.setShortcut(QKeySequence("Ctrl+Shift+F"))
        self.search_action.triggered.connect(
            lambda: window.runner.spawn(self.open_search(), self.tr("Search")))
        menu = window.menuBar().addMenu(self.tr("&Edit"))
        menu.addAction(self.find_action)
        menu.addAction(self.search_action)
        window.tree_view.session_activated.connect(lambda _sid: self.find_bar.close_bar())

    def _open_find(self) -> None:
        if self._w.pane.session is not None:
            self.find_bar.open_bar()

    async def open_search(self) -> SearchWindow:
        """Show the search window (one per window), with fresh project and speaker choices."""
        if self.search_window is None:
            self.search_window = SearchWindow(self._w.kernel, self._w.runner, self._w.pane.window())
            self.search_window.open_requested.connect(
                lambda sid, mid: self._w.runner.spawn(self.open_at(sid, mid), self.tr("Opening the message")))
        kernel = self._w.kernel
        projects, vps = await asyncio.gather(kernel.projects.list_projects(), kernel.vps.list_vps())
        self.search_window.set_choices(projects, vps)
        self.search_window.show()
        self.search_window.raise_()
        self.search_window.query.setFocus()
        return self.search_window

    async def open_at(self, session_id: str, message_id: str) -> bool:
        """Open ``session_id`` and bring ``message_id`` on screen."""
        pane = self._w.pane
        if pane.session is None or pane.session.id != session_id:
            session = (self._w.tree_model.session(session_id)
                       or await self._w.kernel.sessions.get_session(session_id))
            await self._w.show_session(session)
            self._w.tree_view.select_session(session_id)
        return await reveal(pane, self._w.kernel, message_id)
