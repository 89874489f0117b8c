"""The timeline view: a tree view tuned for one long, growing column of painted rows.

Three behaviours a chat view needs that Qt does not provide:

* paging at the *top*: Qt's ``fetchMore`` only fires at the bottom, so the
  view emits ``near_top`` itself when the person scrolls close to the top;
* keeping the scroll anchor when rows are inserted or removed above the
  viewport (the model brackets such edits with ``rows_shifting``);
* following the bottom while a reply streams, unless the person scrolled up.
"""

from __future__ import annotations

from PySide6.QtCore import QPersistentModelIndex, QPoint, QRect, Qt, QTimer, Signal
from PySide6.QtGui import QContextMenuEvent, QGuiApplication, QPainter, QPaintEvent, QResizeEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFrame,
    QMenu,
    QStyleOptionViewItem,
    QToolButton,
    QTreeView,
    QWidget,
)

from foya_desktop.ui import theme
from foya_desktop.ui.timeline.delegate import TimelineDelegate
from foya_desktop.ui.timeline.model import TimelineModel
from foya_desktop.ui.timeline.render import RowRenderer
from foya_desktop.ui.timeline.rows import StreamRow

STICK_SLACK_PX = 8
"""Within this distance of the bottom counts as "at the bottom"."""
TAIL_REPAINT_PX = 72
"""How much of a streaming tail above its old end is repainted per flush (the last few lines)."""


class TimelineView(QTreeView):
    """Shows a ``TimelineModel``; pages at the top, keeps anchors, follows streaming.

    Signals:
        near_top(): the person scrolled close to the top; page older history in.
        reload_requested(): the window is detached and the person asked for the newest messages.
        rows_moved(): rows were laid out again or scrolled; widgets placed over rows follow.
        menu_requested(QMenu, int): a row's context menu is being built (menu, row number);
            connected slots add their actions to it before it opens.
    """

    near_top = Signal()
    reload_requested = Signal()
    rows_moved = Signal()
    menu_requested = Signal(QMenu, int)

    def __init__(self, renderer: RowRenderer, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._configure()
        self.timeline_delegate = TimelineDelegate(renderer, self.viewport(), self)
        self.setItemDelegate(self.timeline_delegate)
        self.placeholder = self.tr("No messages yet.")
        self._stick = True
        self._anchor: tuple[QPersistentModelIndex, int] | None = None
        self._relayout = QTimer(self, singleShot=True, interval=80)
        self._relayout.timeout.connect(self._relayout_now)
        self._jump = self._make_jump_button()
        bar = self.verticalScrollBar()
        bar.rangeChanged.connect(self._on_range_changed)
        bar.valueChanged.connect(self._on_scrolled)

    def _configure(self) -> None:
        self.setHeaderHidden(True)
        self.setRootIsDecorated(False)
        self.setIndentation(0)
        self.setItemsExpandable(False)
        self.setUniformRowHeights(False)
        self.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        # NOTE: a scroll bar that appears on demand changes the width, which re-measures every row.
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOn)
        self.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.verticalScrollBar().setSingleStep(24)

    def _make_jump_button(self) -> QToolButton:
        button = QToolButton(self.viewport())
        button.setText(self.tr("↓ Latest"))
        button.setToolTip(self.tr("Jump to the newest message"))
        button.setCursor(Qt.CursorShape.PointingHandCursor)
        button.setAutoRaise(False)
        button.hide()
        button.clicked.connect(self.jump_to_latest)
        return button

    # ---- model wiring ---------------------------------------------------------------------

    def setModel(self, model: TimelineModel | None) -> None:  # type: ignore[override]
        """Attach a timeline model and follow its anchor-shifting edits."""
        old = self.model()
        if isinstance(old, TimelineModel):
            old.rows_shifting.disconnect(self._on_rows_shifting)
            old.stream_grew.disconnect(self._on_stream_grew)
            old.detached_changed.disconnect(self._update_jump)
            old.modelReset.disconnect(self._on_reset)
        super().setModel(model)
        if model is not None:
            model.rows_shifting.connect(self._on_rows_shifting)
            model.stream_grew.connect(self._on_stream_grew)
            model.detached_changed.connect(self._update_jump)
            model.modelReset.connect(self._on_reset)

    def timeline(self) -> TimelineModel | None:
        """The attached model, typed."""
        model = self.model()
        return model if isinstance(model, TimelineModel) else None

    @property
    def following(self) -> bool:
        """Whether the view keeps the newest content in sight."""
        return self._stick

    def jump_to_latest(self) -> None:
        """Scroll to the end; if the window no longer ends at the newest message, reload it."""
        model = self.timeline()
        if model is not None and model.detached:
            self.reload_requested.emit()
        self._stick = True
        self.scrollToBottom()
        self._update_jump()

    def _on_reset(self) -> None:
        self._stick = True
        self._anchor = None
        self._update_jump()

    def _on_stream_grew(self, row: int) -> None:
        """Repaint just the open tail of a streaming reply unless its height changed.

        NOTE: ``dataChanged`` with a new height makes QTreeView re-lay out and repaint the whole
        viewport; at 60 flushes a second that is most of the cost of streaming.
        """
        model = self.timeline()
        stream = model.row_at(row) if model is not None else None
        if model is None or not isinstance(stream, StreamRow):
            return
        index = model.index(row, 0)
        rect = self.visualRect(index)
        old_top, old_height = stream.tail_top, stream.tail_height
        height = self.timeline_delegate.sizeHint(QStyleOptionViewItem(), index).height()
        if height != rect.height() or not stream.text_only:
            model.refresh_row(row)
        elif rect.intersects(self.viewport().rect()):
            # Appended text changes the tail's last lines (and what a block that just froze showed).
            start = (old_top + max(0, old_height - TAIL_REPAINT_PX) if stream.tail_top == old_top
                     else min(old_top, stream.tail_top))
            self.viewport().update(rect.adjusted(0, start, 0, 0))

    # ---- anchors and following ------------------------------------------------------------

    def _on_rows_shifting(self, starting: bool) -> None:
        if starting:
            self._anchor = None if self._stick else self._capture_anchor()
            return
        self.executeDelayedItemsLayout()
        if self._stick:
            self.scrollToBottom()
        elif self._anchor is not None:
            self._restore_anchor(self._anchor)
        self._anchor = None
        self._maybe_near_top()

    def _capture_anchor(self) -> tuple[QPersistentModelIndex, int] | None:
        index = self.indexAt(QPoint(1, 1))
        if not index.isValid():
            return None
        return QPersistentModelIndex(index), self.visualRect(index).top()

    def _restore_anchor(self, anchor: tuple[QPersistentModelIndex, int]) -> None:
        persistent, old_top = anchor
        if not persistent.isValid():
            return
        new_top = self.visualRect(self.model().index(persistent.row(), 0)).top()
        bar = self.verticalScrollBar()
        self._set_value(bar.value() + new_top - old_top)

    def _set_value(self, value: int) -> None:
        # NOTE: not blocking signals on purpose: the view then scrolls by blitting and repaints
        # only the newly exposed strip instead of the whole viewport on every streamed flush.
        self.verticalScrollBar().setValue(value)

    def _on_range_changed(self, _minimum: int, maximum: int) -> None:
        if self._stick and self._anchor is None:
            self._set_value(maximum)
        self._maybe_near_top()

    def _on_scrolled(self, value: int) -> None:
        self._stick = value >= self.verticalScrollBar().maximum() - STICK_SLACK_PX
        self._update_jump()
        self._maybe_near_top()

    def _maybe_near_top(self) -> None:
        model = self.timeline()
        if model is None or not model.has_older or model.loading:
            return
        if self.verticalScrollBar().value() < self.viewport().height() * 1.5:
            self.near_top.emit()

    def _update_jump(self, *_args: object) -> None:
        model = self.timeline()
        detached = model is not None and model.detached
        self._jump.setVisible(detached or not self._stick)
        self._jump.adjustSize()
        size = self._jump.size()
        viewport = self.viewport().rect()
        self._jump.move(viewport.right() - size.width() - 16, viewport.bottom() - size.height() - 12)

    # ---- geometry, painting, menus --------------------------------------------------------

    def updateGeometries(self) -> None:
        """After every layout pass: cards placed over rows move with them."""
        super().updateGeometries()
        self.rows_moved.emit()

    def scrollContentsBy(self, dx: int, dy: int) -> None:
        """NOTE: QTreeView skips scrolling child widgets on big jumps when it has no editors."""
        super().scrollContentsBy(dx, dy)
        self.rows_moved.emit()

    def resizeEvent(self, event: QResizeEvent) -> None:
        """A new width changes every row's height: re-lay out once the resize settles."""
        super().resizeEvent(event)
        if event.size().width() != event.oldSize().width():
            if self._anchor is None and not self._stick:
                self._anchor = self._capture_anchor()
            self._relayout.start()
        self._update_jump()

    def _relayout_now(self) -> None:
        self.scheduleDelayedItemsLayout()
        self.executeDelayedItemsLayout()
        if self._stick:
            self.scrollToBottom()
        elif self._anchor is not None:
            self._restore_anchor(self._anchor)
        self._anchor = None

    def paintEvent(self, event: QPaintEvent) -> None:
        """Rows, or a quiet placeholder when there are none."""
        model = self.model()
        if model is not None and model.rowCount() > 0:
            self.timeline_delegate.exposed = event.rect()
            try:
                super().paintEvent(event)
            finally:
                self.timeline_delegate.exposed = None
            return
        painter = QPainter(self.viewport())
        painter.setPen(theme.dim_color())
        painter.setFont(theme.body_font())
        area = self.viewport().rect().adjusted(40, 0, -40, 0)
        painter.drawText(area, Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap, self.placeholder)

    def contextMenuEvent(self, event: QContextMenuEvent) -> None:
        """Copy a message's text, and whatever the window adds (branch, rewind…)."""
        index = self.indexAt(event.pos())
        if not index.isValid():
            return
        menu = self.menu_for_row(index.row())
        menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        menu.popup(event.globalPos())

    def menu_for_row(self, row: int) -> QMenu:
        """The context menu of a row as it would open now (tests trigger its actions directly)."""
        menu = QMenu(self)
        text = str(self.model().index(row, 0).data() or "")
        menu.addAction(self.tr("Copy text"), lambda: QGuiApplication.clipboard().setText(text))
        self.menu_requested.emit(menu, row)
        return menu

    def row_rect(self, row: int) -> QRect:
        """Where a row is drawn (tests and screenshots)."""
        model = self.model()
        return self.visualRect(model.index(row, 0)) if model is not None else QRect()
