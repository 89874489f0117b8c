"""The timeline delegate: cached row heights, painting, and click-to-unfold.

The view asks for every row's height whenever it lays out (with per-pixel
scrolling it sums them all), so ``sizeHint`` must be a dictionary lookup in
the common case. Heights are keyed by row identity, revision, width and
header flag; a row's documents may be evicted from the LRU while its height
stays known.
"""

from __future__ import annotations

from PySide6.QtCore import (
    QAbstractItemModel,
    QEvent,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QRect,
    QSize,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtGui import QGuiApplication, QMouseEvent, QPainter
from PySide6.QtWidgets import QStyledItemDelegate, QStyleOptionViewItem, QWidget

from foya_desktop.ui.timeline.canvas import Canvas
from foya_desktop.ui.timeline.model import HEADER_ROLE, ROW_ROLE, TimelineModel
from foya_desktop.ui.timeline.render import RowRenderer
from foya_desktop.ui.timeline.rows import Row, StreamRow

AnyIndex = QModelIndex | QPersistentModelIndex
SizeKey = tuple[str, int, int, bool]

MAX_SIZE_ENTRIES = 20_000
STREAM_HEIGHT_STEP = 64


class TimelineDelegate(QStyledItemDelegate):
    """Paints timeline rows with a ``RowRenderer``; no editors, no selection.

    Toggling a fold goes straight to the model; a click on a thumbnail is announced.

    Signals:
        image_clicked(int, str): row number and artifact hash of the thumbnail the person clicked.
        code_copied(str): a code block's copy button put this code on the clipboard.
    """

    image_clicked = Signal(int, str)
    code_copied = Signal(str)

    def __init__(self, renderer: RowRenderer, viewport: QWidget, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.renderer = renderer
        self._viewport = viewport
        self._sizes: dict[SizeKey, int] = {}
        self._hits: dict[str, list[tuple[QRect, int]]] = {}
        self._images: dict[str, list[tuple[QRect, str]]] = {}
        self._copies: dict[str, list[tuple[QRect, str]]] = {}
        self.copied = ""
        """The code copied a moment ago: its button says "Copied" until ``_copied_timer`` runs out."""
        self._copied_timer = QTimer(self, singleShot=True, interval=1500)
        self._copied_timer.timeout.connect(self._forget_copied)
        self.measured = 0
        """How many rows were measured for real (benchmarks and tests read this)."""
        self.exposed: QRect | None = None
        """The viewport area being repainted (set by the view); parts outside it are not drawn."""

    def width(self) -> int:
        """Rows span the viewport: the view has one stretched column and no header."""
        return max(200, self._viewport.width())

    def sizeHint(self, option: QStyleOptionViewItem, index: AnyIndex) -> QSize:
        """The row's height at the current width, measured once per revision."""
        row: Row | None = index.data(ROW_ROLE)
        if row is None:
            return QSize(0, 0)
        width = self.width()
        key = (row.key, row.revision, width, bool(index.data(HEADER_ROLE)))
        height = self._sizes.get(key)
        if height is None:
            height = self._measure(row, width, key[3])
            if len(self._sizes) > MAX_SIZE_ENTRIES:
                self._sizes.clear()
            self._sizes[key] = height
        return QSize(width, height)

    def _measure(self, row: Row, width: int, header: bool) -> int:
        self.measured += 1
        canvas = Canvas(None, 0, 0, width)
        self.renderer.walk(canvas, row, header)
        if isinstance(row, StreamRow):
            # A streaming row grows in steps: most flushes then repaint only this row, instead of
            # a height change that re-lays out, scrolls and repaints the whole viewport.
            return -(-canvas.y // STREAM_HEIGHT_STEP) * STREAM_HEIGHT_STEP
        return canvas.y

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: AnyIndex) -> None:
        """Draw the row; remember its clickable areas for ``editorEvent``."""
        row: Row | None = index.data(ROW_ROLE)
        if row is None:
            return
        rect = option.rect
        visible = self.exposed if self.exposed is not None else self._viewport.rect()
        canvas = Canvas(painter, rect.left(), rect.top(), rect.width(), visible=visible, copied=self.copied)
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.TextAntialiasing)
        self.renderer.walk(canvas, row, bool(index.data(HEADER_ROLE)))
        painter.restore()
        self._hits[row.key] = list(canvas.hits)
        self._images[row.key] = list(canvas.images)
        self._copies[row.key] = list(canvas.copies)
        if len(self._hits) > 2000:
            self._hits.clear()
            self._images.clear()
            self._copies.clear()

    def editorEvent(self, event: QEvent, model: QAbstractItemModel, option: QStyleOptionViewItem,
                    index: AnyIndex) -> bool:
        """A click on a folded line (reasoning, tool call) unfolds it; on a thumbnail, opens it."""
        if event.type() != QEvent.Type.MouseButtonRelease or not isinstance(event, QMouseEvent):
            return False
        if event.button() != Qt.MouseButton.LeftButton or not isinstance(model, TimelineModel):
            return False
        row: Row | None = index.data(ROW_ROLE)
        rect = option.rect
        point = event.position().toPoint() - rect.topLeft()
        for box, code in self._copies.get(row.key if row else "", []):
            if box.contains(point):
                self.copy_code(code)
                return True
        for box, sha in self._images.get(row.key if row else "", []):
            if box.contains(point):
                self.image_clicked.emit(index.row(), sha)
                return True
        for area, part in self._hits.get(row.key if row else "", []):
            if area.contains(point):
                model.toggle_part(index.row(), part)
                return True
        return False

    def copy_buttons(self, row_key: str) -> list[tuple[QRect, str]]:
        """The copy buttons painted last in a row (row coordinates, code) — tests click them."""
        return list(self._copies.get(row_key, []))

    def copy_code(self, code: str) -> None:
        """Put exactly ``code`` on the clipboard; its button says "Copied" for a moment."""
        QGuiApplication.clipboard().setText(code)
        self.copied = code
        self._copied_timer.start()
        self._viewport.update()
        self.code_copied.emit(code)

    def _forget_copied(self) -> None:
        self.copied = ""
        self._viewport.update()

    def clear_sizes(self) -> None:
        """Forget every cached height (fonts or palette changed)."""
        self._sizes.clear()
