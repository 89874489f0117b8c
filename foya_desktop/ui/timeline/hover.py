"""The row under the pointer: the one that shows its Copy chip.

Qt keeps its own hover index and repaints the rows it leaves and enters, but it also
moves that index while a compensated edit (``in_place``) holds back repaints — a page
inserted above scrolls the anchor back, and Qt re-checks the pointer at every step. Its
repaint requests were dropped and the chip of the row that came under the pointer was
missing until something else repainted the row (issue 14: stale pixels while paging).

So the timeline derives the hovered row itself, from the pointer's position and the
rows' places at the moment of painting, and the compensated edit compares it with what
it was like every other thing on screen. ``sync`` repaints the row left and the row
entered whenever the answer changes: after a pointer move, a scroll or a layout.
"""

from __future__ import annotations

from PySide6.QtCore import QPersistentModelIndex
from PySide6.QtGui import QCursor
from PySide6.QtWidgets import QTreeView

from foya_desktop.ui.timeline.model import TimelineModel


class PointerRow:
    """The key of the row under the pointer, and the repaints that follow it."""

    def __init__(self, view: QTreeView) -> None:
        self._view = view
        self._shown: tuple[str | None, QPersistentModelIndex] = (None, QPersistentModelIndex())
        """The row ``sync`` last had repainted as hovered (key, index that follows the row)."""

    def key(self) -> str | None:
        """The row under the pointer now (``None`` when the pointer is elsewhere)."""
        return self._under()[0]

    def sync(self) -> None:
        """Repaint the row the pointer left and the one it is over, if that changed."""
        key, index = self._under()
        old_key, old_index = self._shown
        if key == old_key:
            return
        viewport = self._view.viewport()
        for changed in (old_index, index):
            if changed.isValid():
                viewport.update(self._view.visualRect(self._view.model().index(changed.row(), 0)))
        self._shown = (key, QPersistentModelIndex(index) if index.isValid() else QPersistentModelIndex())

    def _under(self) -> tuple[str | None, QPersistentModelIndex]:
        view, viewport = self._view, self._view.viewport()
        model = view.model()
        if not isinstance(model, TimelineModel) or not viewport.underMouse():
            return None, QPersistentModelIndex()
        pos = viewport.mapFromGlobal(QCursor.pos())
        index = view.indexAt(pos) if viewport.rect().contains(pos) else None
        if index is None or not index.isValid():
            return None, QPersistentModelIndex()
        return model.row_at(index.row()).key, QPersistentModelIndex(index)
