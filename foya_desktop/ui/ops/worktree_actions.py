"""Worktree sessions in the sidebar: the branch mark, *Merge back…*, and fork or branch into a
new worktree for a session whose folder is in a git repository.

The mark (branch, ● uncommitted, ↑N commits ahead of the base) is read from git
by the kernel, never stored, so it is refreshed when sessions appear in the
tree, when a turn of a worktree session ends (a VP may have committed) and
after a merge back.
"""

from __future__ import annotations

from typing import Literal

from PySide6.QtCore import QT_TRANSLATE_NOOP, QObject, QTimer
from PySide6.QtWidgets import QMenu

from foya_desktop.core.events import Event, TurnFinished
from foya_desktop.core.model import Session
from foya_desktop.ui.ops.worktree_flows import into_worktree, merge_back, worktree_label
from foya_desktop.ui.window_parts import WindowParts

MERGE_BACK = str(QT_TRANSLATE_NOOP("WorktreeActions", "Merge back…"))
FORK_INTO = str(QT_TRANSLATE_NOOP("WorktreeActions", "Fork into a new worktree…"))
BRANCH_INTO = str(QT_TRANSLATE_NOOP("WorktreeActions", "Branch from latest reply into a new worktree…"))
"""The session menu's entries (translated where they are shown)."""


class WorktreeActions(QObject):
    """Keeps the sidebar's worktree marks current and adds *Merge back…* to a worktree session's menu.

    Signals:
        (none; the marks go to the tree model, operations run on the window's runner)
    """

    def __init__(self, window: WindowParts) -> None:
        super().__init__(window.pane)
        self._w = window
        self._in_repository: set[str] = set()
        """Projects whose folder is in a git repository (their sessions offer *… into a new worktree*)."""
        self._timer = QTimer(self, singleShot=True, interval=150)
        self._timer.timeout.connect(lambda: window.runner.spawn(self.refresh(), self.tr("Reading worktrees")))
        window.tree_model.rowsInserted.connect(lambda *_: self._timer.start())
        window.tree_view.menu_requested.connect(self._menu)
        self._unsubscribe = window.kernel.bus.subscribe(self._on_event)
        self.destroyed.connect(lambda *_: self._unsubscribe())

    async def refresh(self) -> None:
        """Read every top-level session's worktree state and show the marks."""
        kernel = self._w.kernel
        statuses = await kernel.worktrees.statuses(self._w.tree_model.sessions())
        self._w.tree_model.set_worktree_marks({k: worktree_label(v) for k, v in statuses.items()})
        self._in_repository = {p.id for p in self._w.tree_model.projects()
                               if await kernel.worktrees.branches(p.path) is not None}

    def _on_event(self, event: Event) -> None:
        if isinstance(event, TurnFinished) and self._marked(event.session_id):
            self._timer.start()

    def _marked(self, session_id: str) -> bool:
        index = self._w.tree_model.index_of_session(session_id)
        return index.isValid() and bool(self._w.tree_model.node(index).worktree)

    def _menu(self, menu: QMenu, session_id: str) -> None:
        session = self._w.tree_model.session(session_id)
        if session is None or session.parent_id is not None:
            return
        spawn, tr = self._w.runner.spawn, self.tr
        if session.project_id in self._in_repository:
            menu.addAction(tr(FORK_INTO), lambda: spawn(self._into(session, "fork"), tr("Forking")))
            menu.addAction(tr(BRANCH_INTO), lambda: spawn(self._into(session, "branch"), tr("Branching")))
        if self._marked(session_id):
            menu.addAction(tr(MERGE_BACK), lambda: spawn(self._merge_back(session_id), tr("Merging back")))

    async def _into(self, session: Session, how: Literal["fork", "branch"]) -> None:
        created = await into_worktree(self._w.kernel, session, how, self._w.pane)
        if created is not None:
            self._w.tree_model.upsert_session(created)
            self._w.tree_view.select_session(created.id)

    async def _merge_back(self, session_id: str) -> None:
        await merge_back(self._w.kernel, session_id, self._w.pane)
        await self.refresh()
