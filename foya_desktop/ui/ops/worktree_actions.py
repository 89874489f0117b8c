"""Worktree sessions in the sidebar: the branch mark and the *Merge back…* entry.

The mark (branch, ● uncommitted, ↑N commits ahead of the base) is read from git
by the kernel, never stored, so it is refreshed when sessions appear in the
tree, when a turn of a worktree session ends (a VP may have committed) and
after a merge back.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, QTimer
from PySide6.QtWidgets import QMenu

from foya_desktop.core.events import Event, TurnFinished
from foya_desktop.ui.ops.worktree_flows import MERGE_BACK, merge_back, worktree_label
from foya_desktop.ui.window_parts import WindowParts


class WorktreeActions(QObject):
    """Keeps the sidebar's worktree marks current and adds *Merge back…* to a worktree session's menu.

    Signals:
        (none; the marks go to the tree model, operations run on the window's runner)
    """

    def __init__(self, window: WindowParts) -> None:
        super().__init__(window.pane)
        self._w = window
        self._timer = QTimer(self, singleShot=True, interval=150)
        self._timer.timeout.connect(lambda: window.runner.spawn(self.refresh(), self.tr("Reading worktrees")))
        window.tree_model.rowsInserted.connect(lambda *_: self._timer.start())
        window.tree_view.menu_requested.connect(self._menu)
        self._unsubscribe = window.kernel.bus.subscribe(self._on_event)
        self.destroyed.connect(lambda *_: self._unsubscribe())

    async def refresh(self) -> None:
        """Read every top-level session's worktree state and show the marks."""
        statuses = await self._w.kernel.worktrees.statuses(self._w.tree_model.sessions())
        self._w.tree_model.set_worktree_marks({k: worktree_label(v) for k, v in statuses.items()})

    def _on_event(self, event: Event) -> None:
        if isinstance(event, TurnFinished) and self._marked(event.session_id):
            self._timer.start()

    def _marked(self, session_id: str) -> bool:
        index = self._w.tree_model.index_of_session(session_id)
        return index.isValid() and bool(self._w.tree_model.node(index).worktree)

    def _menu(self, menu: QMenu, session_id: str) -> None:
        if not self._marked(session_id):
            return
        menu.addAction(self.tr(MERGE_BACK), lambda: self._w.runner.spawn(self._merge_back(session_id),
                                                                         self.tr("Merging back")))

    async def _merge_back(self, session_id: str) -> None:
        await merge_back(self._w.kernel, session_id, self._w.pane)
        await self.refresh()
