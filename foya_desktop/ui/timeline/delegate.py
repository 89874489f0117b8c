"""The timeline delegate: cached row heights, painting, and click-to-unfold.

The view asks for every row's height whenever it lays out (with per-pixel
scrolling it sums them all), so ``sizeHint`` must be a dictionary lookup in
the common case. Heights are keyed by row identity, revision, width and
header flag; a row's documents may be evicted from the LRU while its height
stays known.

A row nobody has looked at yet gets an *estimate* from its text length
(``RowRenderer.estimate``): laying out 150 markdown rows just to learn their
heights cost 0.1–0.2 s per page of older history (issue 14). The view
measures rows for real (``measure``) when they come near the viewport and
keeps what the person reads in place when an estimate was off
(``TimelineView`` settles them before they are painted).
"""

from __future__ import annotations

from PySide6.QtCore import (
    QAbstractItemModel,
    QEvent,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QRect,
    QRectF,
    QSize,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtGui import QColor, QFontMetrics, QGuiApplication, QMouseEvent, QPainter
from PySide6.QtWidgets import QAbstractItemView, QStyledItemDelegate, QStyleOptionViewItem, QWidget

from foya_desktop.ui import theme
from foya_desktop.ui.timeline.canvas import Canvas, copy_label
from foya_desktop.ui.timeline.model import HEADER_ROLE, ROW_ROLE, TimelineModel
from foya_desktop.ui.timeline.render import RowRenderer, reading_gutter
from foya_desktop.ui.timeline.rows import MessageRow, Row, StreamRow

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
        reply_action_clicked(str): the Retry or Continue button under this reply (its message id) was
            clicked (``reply_actions``).
    """

    image_clicked = Signal(int, str)
    code_copied = Signal(str)
    reply_action_clicked = Signal(str)

    def __init__(self, renderer: RowRenderer, viewport: QWidget, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.renderer = renderer
        self._viewport = viewport
        viewport.setAttribute(Qt.WidgetAttribute.WA_Hover)  # the row under the pointer shows its Copy
        self.hover_key: str | None = None
        """The row under the pointer, set by the view before each paint (``hover.PointerRow``)."""
        self._sizes: dict[SizeKey, int] = {}
        self._hints: dict[SizeKey, QSize] = {}
        """What ``sizeHint`` answered for each key (real or estimated height)."""
        self._estimates: dict[SizeKey, int] = {}
        self._seen: set[str] = set()
        """Keys of rows measured for real once: a new revision of theirs is measured, not guessed
        (unless ``estimate_rows`` guessed it: a page of older history, built again)."""
        self._last: dict[tuple[str, int, bool], int] = {}
        """The last real height of each row key at a width and header flag (any revision)."""
        self._hits: dict[str, list[tuple[QRect, int]]] = {}
        self._images: dict[str, list[tuple[QRect, str]]] = {}
        self._copies: dict[str, list[tuple[QRect, str]]] = {}
        self._actions: dict[str, list[tuple[QRect, str]]] = {}
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
        """The row's height at the current width: measured once per revision, or estimated
        while the row was never near the viewport (see the module docstring).

        NOTE: every items layout asks every row of the window (a page of older history inserted
        at the top lays out all of them again, issue 14): the answer for a key is kept as the
        ``QSize`` itself, so the common case is one model call and one dictionary lookup.
        """
        found = self._key(index)
        if found is None:
            return QSize(0, 0)
        row, key = found
        hint = self._hints.get(key)
        if hint is None:
            hint = QSize(key[2], self._height(row, key))
            if len(self._hints) > MAX_SIZE_ENTRIES:
                self._hints.clear()
            self._hints[key] = hint
        return hint

    def _height(self, row: Row, key: SizeKey) -> int:
        height = self._sizes.get(key)
        if height is None and isinstance(row, MessageRow) and (row.key not in self._seen
                                                               or key in self._estimates):
            height = self._estimates.get(key)
            if height is None:
                height = self.renderer.estimate(row, key[2], key[3])
                if len(self._estimates) > MAX_SIZE_ENTRIES:
                    self._estimates.clear()
                self._estimates[key] = height
        elif height is None:  # a stream, a marker, or a row shown before that changed since
            height = self._remember(row, key)
        return height

    def estimate_rows(self, rows: list[Row], headers: list[bool]) -> None:
        """Estimate the heights of rows about to be inserted (a page of history), so the layout
        pass that inserts them finds every height in a dictionary (issue 14).

        A row shown before (the window was reloaded around a jump, or the session shown again)
        is a new row object with a new revision; without this it was measured for real in that
        layout pass, every row of the page. Its last real height is the estimate; the view
        measures it again when it comes near the viewport, as any estimated row.
        """
        width = self.width()
        for row, header in zip(rows, headers, strict=True):
            key = (row.key, row.revision, width, header)
            if isinstance(row, MessageRow) and key not in self._sizes and key not in self._estimates:
                if len(self._estimates) > MAX_SIZE_ENTRIES:
                    self._estimates.clear()
                last = self._last.get((row.key, width, header))
                self._estimates[key] = self.renderer.estimate(row, width, header) if last is None else last

    def _key(self, index: AnyIndex) -> tuple[Row, SizeKey] | None:
        model = index.model()
        if not isinstance(model, TimelineModel):
            return None
        # NOTE: straight to the model, not ``index.data``: a layout asks every row of the window.
        found = model.row_and_header(index.row())
        if found is None:
            return None
        row, header = found
        return row, (row.key, row.revision, self.width(), header)

    def _remember(self, row: Row, key: SizeKey) -> int:
        height = self._measure(row, key[2], key[3])
        if len(self._sizes) > MAX_SIZE_ENTRIES:
            self._sizes.clear()
            self._hints.clear()
            self._seen.clear()
            self._last.clear()
        self._sizes[key] = height
        self._last[(key[0], key[2], key[3])] = height
        self._estimates.pop(key, None)
        self._hints.pop(key, None)  # it was an estimate
        self._seen.add(row.key)
        if isinstance(row, StreamRow):
            # Its stored message takes its place on screen: measured at once, not guessed (an
            # estimate moved the bottom twice at the end of every reply: the text jumped).
            self._seen.add(row.message_id)
        return height

    def measure(self, index: AnyIndex) -> int:
        """The row's real height, measured now if only an estimate was known (the view then
        refreshes the row when it comes near the viewport, keeping what the person reads)."""
        found = self._key(index)
        if found is None:
            return 0
        height = self._sizes.get(found[1])
        return height if height is not None else self._remember(*found)

    def is_estimated_row(self, row: int) -> bool:
        """Whether row ``row`` of the view's model has only an estimated height (tests)."""
        view = self.parent()
        model = view.model() if isinstance(view, QAbstractItemView) else None
        return model is not None and not self.is_measured(model.index(row, 0))

    def is_measured(self, index: AnyIndex) -> bool:
        """Whether this row's real height at the current width is known."""
        found = self._key(index)
        return found is not None and found[1] in self._sizes

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
        self._actions[row.key] = list(canvas.actions)
        if row.key == self.hover_key and isinstance(row, MessageRow) \
                and row.message.role in ("user", "assistant"):
            text = str(index.data() or "")  # what the context menu's "Copy text" copies
            if text.strip():
                header = bool(index.data(HEADER_ROLE))
                box = self._hover_copy(painter, rect, row, text, header, canvas.bubble)
                self._copies[row.key].append((box, text))
        if len(self._hits) > 2000:
            self._hits.clear()
            self._images.clear()
            self._copies.clear()
            self._actions.clear()

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
        for box, message_id in self._actions.get(row.key if row else "", []):
            if box.contains(point):
                self.reply_action_clicked.emit(message_id)
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

    def _hover_copy(self, painter: QPainter, rect: QRect, row: MessageRow, text: str, header: bool,
                    bubble: QRect | None) -> QRect:
        """The message's Copy chip while the pointer is over it (as the peers' hover actions): at
        the top right of the reading column beside a reply, just left of your bubble beside yours
        (at the column's left edge, it was a window's width away from a short bubble). Painted
        over the row, never measured: showing it moves nothing. Returns its row box."""
        font = theme.small_font()
        metrics = QFontMetrics(font)
        label = copy_label(text == self.copied)
        width, height = metrics.horizontalAdvance(label) + 20, metrics.height() + 6
        gutter = reading_gutter(rect.width())
        if row.message.role == "user" and bubble is not None:
            x, y = max(gutter + 4, bubble.left() - width - 8), bubble.top() + (bubble.height() - height) // 2
            if bubble.height() > 2 * height:  # a tall bubble: beside its first line
                y = bubble.top() + 4
        else:
            x, y = rect.width() - gutter - width - 20, 14 if header else 2  # on the speaker's line
        box = QRect(x, y, width, height)
        c = theme.colors(theme.is_dark())
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(QColor(c["mid"]))
        painter.setBrush(QColor(c["base"]))
        painter.drawRoundedRect(QRectF(box.translated(rect.topLeft())).adjusted(0.5, 0.5, -0.5, -0.5), 6, 6)
        painter.setFont(font)
        painter.setPen(theme.dim_color())
        painter.drawText(box.translated(rect.topLeft()), Qt.AlignmentFlag.AlignCenter, label)
        painter.restore()
        return box

    def action_buttons(self, row_key: str) -> list[tuple[QRect, str]]:
        """The Retry/Continue buttons painted last in a row (row coordinates, message id) — tests
        click them."""
        return list(self._actions.get(row_key, []))

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
        self._hints.clear()
        self._estimates.clear()
        self._seen.clear()
        self._last.clear()
