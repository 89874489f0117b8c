"""Shared steps for the session-operation tests: open a session, say something, find things."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QPoint
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu

from foya_desktop.core.events import Event, TurnFinished
from foya_desktop.core.model import ApprovalMode, Phase
from foya_desktop.engine.kernel import Kernel
from foya_desktop.ui.main_window import MainWindow
from foya_desktop.ui.timeline.rows import CheckpointRow, MessageRow, StreamRow
from tests.ui.helpers import settle, wait_until


class Turns:
    """Counts finished turns per session (subscribe before sending)."""

    def __init__(self, kernel: Kernel) -> None:
        self.done: list[TurnFinished] = []
        kernel.bus.subscribe(self._on)

    def _on(self, event: Event) -> None:
        if isinstance(event, TurnFinished):
            self.done.append(event)

    def of(self, session_id: str) -> list[TurnFinished]:
        """Finished turns of one session."""
        return [t for t in self.done if t.session_id == session_id]


async def open_session(window: MainWindow, kernel: Kernel, project: Path | None = None,
                       title: str = "Ops") -> str:
    """Create an auto-edit session on ``project`` and show it in the window."""
    session = await kernel.sessions.create_session(title=title, workdir=str(project) if project else None,
                                          connection="fake", model="fake-model",
                                          approval_mode=ApprovalMode.AUTO_EDIT)
    await wait_until(lambda: window.tree_model.session(session.id) is not None, what="tree row")
    window.tree_view.select_session(session.id)
    await wait_until(lambda: window.pane.session is not None and window.pane.session.id == session.id)
    await window.runner.drain()
    return session.id


async def say(window: MainWindow, kernel: Kernel, turns: Turns, session_id: str, text: str) -> None:
    """Send ``text`` and wait until the turn finished and the timeline settled."""
    before = len(turns.of(session_id))
    await kernel.turns.send(session_id, text)
    await wait_until(lambda: len(turns.of(session_id)) > before, timeout=20, what=f"turn for {text!r}")
    finished = turns.of(session_id)[-1]
    assert finished.status == "completed", finished.error
    await wait_until(lambda: kernel.turns.phase(session_id) == Phase.IDLE)
    await wait_until(lambda: not any(isinstance(r, StreamRow) for r in rows(window)), what="no streams")
    await settle()


def rows(window: MainWindow) -> list[MessageRow | StreamRow | CheckpointRow]:
    """The timeline's rows, top to bottom."""
    model = window.pane.timeline_model
    return [model.row_at(i) for i in range(model.rowCount())]


def texts(window: MainWindow, role: str) -> list[str]:
    """Texts of the message rows of one role."""
    return [r.message.text for r in rows(window) if isinstance(r, MessageRow) and r.message.role == role]


def row_of(window: MainWindow, role: str, text: str) -> int:
    """Index of the first message row of ``role`` whose text starts with ``text``."""
    return next(i for i, r in enumerate(rows(window))
                if isinstance(r, MessageRow) and r.message.role == role and r.message.text.startswith(text))


def action_texts(menu: QMenu) -> list[str]:
    """Texts of a menu's actions (separators left out)."""
    return [a.text() for a in menu.actions() if not a.isSeparator()]


def find_action(menu: QMenu, prefix: str) -> QAction:
    """The action whose text starts with ``prefix``."""
    return next(a for a in menu.actions() if a.text().startswith(prefix))


def tree_menu(window: MainWindow, session_id: str) -> QMenu:
    """The session tree's context menu for a session row."""
    view = window.tree_view
    index = view.tree().index_of_session(session_id)
    view.scrollTo(index)
    menu = view.menu_at(view.visualRect(index).center())
    assert menu is not None
    return menu


def grab_menu(menu: QMenu, path: Path) -> None:
    """Save a picture of a menu as it would pop up."""
    menu.popup(QPoint(100, 100))
    menu.grab().save(str(path))
    menu.close()
