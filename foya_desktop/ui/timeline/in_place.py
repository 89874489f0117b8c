"""Edits the timeline view compensates, so that what is on screen stays where it was.

Rows inserted above the viewport (a page of older history), rows trimmed off the
other end, and rows above the viewport whose estimated height was just corrected
are *compensated*: the view puts its anchor row back at the same pixel. Every
pixel on screen is then what it was. Qt does not know that: it repaints the whole
viewport after every items layout and every multi-row ``dataChanged``, and that
repaint (every row on screen painted again, 3–7 ms) was a third to a half of the
longest frames while paging older history (issue 14).

``InPlaceEdits`` brackets such an edit: while it runs, the viewport drops update
requests and scrolling does not move pixels; afterwards the rows on screen, the row
under the pointer (``hover``) and the widgets over them are compared with what they
were, and if anything differs the whole viewport is repainted, exactly what Qt would
have done. Updates requested before the edit (a strip scrolled in a moment ago) are
kept. Whatever a paint draws must therefore be in ``screen_state``: a thing that
changed during the edit and is not there stays stale on screen.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QTreeView, QWidget

from foya_desktop.ui.timeline.hover import PointerRow
from foya_desktop.ui.timeline.model import TimelineModel

ScreenState = tuple[object, ...]


class InPlaceEdits:
    """Brackets compensated edits of one view (see the module docstring).

    ``active`` tells the view's ``scrollContentsBy`` not to move pixels: the scroll that puts
    the anchor back only undoes the shift of the rows above.
    """

    def __init__(self, view: QTreeView, pointer: PointerRow) -> None:
        self._view = view
        self._pointer = pointer
        self._depth = 0
        self._before: ScreenState | None = None
        self.full_repaints = 0
        """How many edits changed what is on screen and so repainted everything (tests)."""
        self.kept = 0
        """How many edits left every pixel in place and repainted nothing (tests)."""

    @property
    def active(self) -> bool:
        """A compensated edit is running."""
        return self._depth > 0

    @contextmanager
    def edit(self) -> Iterator[None]:
        """Run one compensated edit (nested edits join the outer one)."""
        self.begin()
        try:
            yield
        finally:
            self.end()

    def begin(self) -> None:
        """Start an edit: remember what is on screen, hold back repaints."""
        self._depth += 1
        if self._depth > 1:
            return
        viewport = self._view.viewport()
        # the pointer's row as the pixels show it (or will: the repaint is asked for before the edit)
        self._pointer.sync()
        # NOTE: an ancestor may have disabled updates itself; then nothing is held back or undone.
        self._before = self.screen_state() if viewport.updatesEnabled() else None
        if self._before is not None:
            # NOTE: the attribute, not ``setUpdatesEnabled``: enabling updates again repaints the
            # whole widget, the very repaint this avoids. Children keep their own updates.
            viewport.setAttribute(Qt.WidgetAttribute.WA_UpdatesDisabled, True)

    def end(self) -> None:
        """Finish an edit: repaint everything if what is on screen changed, else nothing."""
        self._depth -= 1
        if self._depth > 0:
            return
        before, self._before = self._before, None
        if before is None:
            return
        viewport = self._view.viewport()
        viewport.setAttribute(Qt.WidgetAttribute.WA_UpdatesDisabled, False)
        self._pointer.sync()  # (its repaints during the edit were dropped; a change repaints all below)
        if self.screen_state() != before:
            self.full_repaints += 1
            viewport.update()
        else:
            self.kept += 1

    def screen_state(self) -> ScreenState:
        """What the viewport's pixels are made of: each row on screen (identity, revision,
        speaker header, place and height), the row under the pointer (its Copy chip) and the
        widgets placed over the rows."""
        view = self._view
        viewport = view.viewport()
        model = view.model()
        rows: list[tuple[str, int, bool, int, int]] = []
        if isinstance(model, TimelineModel) and model.rowCount():
            first = view.indexAt(QPoint(1, 0))
            i = first.row() if first.isValid() else 0
            y = view.visualRect(model.index(i, 0)).top()
            while i < model.rowCount() and y < viewport.height():
                height = view.rowHeight(model.index(i, 0))
                row = model.row_at(i)
                rows.append((row.key, row.revision, model.starts_block(i), y, height))
                y += height
                i += 1
        widgets = tuple((w.isVisible(), w.geometry().getRect()) for w in viewport.children()
                        if isinstance(w, QWidget))
        return (viewport.width(), viewport.height()), tuple(rows), self._pointer.key(), widgets
