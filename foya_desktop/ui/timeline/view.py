"""The timeline view: a tree view tuned for one long, growing column of painted rows.

Three behaviours a chat view needs that Qt does not provide:

* paging at the *top*: Qt's ``fetchMore`` only fires at the bottom, so the
  view emits ``near_top`` itself when the person scrolls close to the top;
* keeping the scroll anchor when rows are inserted or removed above the
  viewport (the model brackets such edits with ``rows_shifting``);
* following the bottom while a reply streams, unless the person scrolled up;
* *settling* rows whose height is only an estimate (``TimelineDelegate``): the rows on
  screen are measured for real before they are painted, and the rows a screen above and
  below soon after, a few milliseconds at a time; whatever the person reads stays in place.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from PySide6.QtCore import QEvent, QModelIndex, QPersistentModelIndex, QPoint, QRect, Qt, QTimer, Signal
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
from foya_desktop.ui.timeline.hover import PointerRow
from foya_desktop.ui.timeline.in_place import InPlaceEdits
from foya_desktop.ui.timeline.model import TimelineModel
from foya_desktop.ui.timeline.render import RowRenderer
from foya_desktop.ui.timeline.rows import MessageRow, StreamRow
from foya_desktop.ui.timeline.session_bar import SessionScrollBar

STICK_SLACK_PX = 8
"""Within this distance of the bottom counts as "at the bottom"."""
TAIL_REPAINT_PX = 72
"""How much of a streaming tail above its old end is repainted per flush (the last few lines)."""
SETTLE_BUDGET_S = 0.004
"""GUI time one pass of measuring rows ahead of the viewport may take (a frame is 16 ms, and a
scrolling frame also paints and settles)."""
STREAM_REPAINT_MS = 33
"""A streaming reply is re-measured and repainted at most this often (30 a second: smooth to
read, half the work of following every 16 ms flush)."""
STREAM_SLOWEST_MS = 100
"""… and at least this often, however costly showing it is (10 a second still reads as streaming)."""
STREAM_CPU_SHARE = 0.04
"""The share of a core that showing a streaming reply may take. A long paragraph is parsed and laid
out again at every repaint, so its repaints cost more as it grows; they then come less often
(``stream_repaint_interval_ms``) instead of taking ever more CPU (issue 14)."""


def stream_repaint_interval_ms(cost_s: float) -> int:
    """How long to wait between repaints of a streaming reply whose last repaint (measuring and
    painting it) took ``cost_s`` seconds of GUI-thread CPU."""
    return round(min(STREAM_SLOWEST_MS, max(STREAM_REPAINT_MS, 1000 * cost_s / STREAM_CPU_SHARE)))

NEAR_PX = 160
"""Rows this close to the viewport get their real heights before they scroll into view."""
_POINTER_EVENTS = frozenset({QEvent.Type.HoverEnter, QEvent.Type.HoverMove, QEvent.Type.HoverLeave,
                             QEvent.Type.Enter, QEvent.Type.Leave})


class TimelineView(QTreeView):
    """Shows a ``TimelineModel``; pages at the top, keeps anchors, follows streaming.

    Signals:
        near_top(): the person scrolled close to the top; page older history in.
        jump_requested(int): the person dragged the session scroll bar: show this seq at the top
            (the pane runs ``TimelineModel.jump_to`` and then ``show_row_at_top``).
        oldest_wanted(): the session scroll bar does not know where the session starts yet
            (the pane runs ``TimelineModel.find_oldest_seq``, then ``sync_session_bar``).
        reload_requested(): the window is detached and the person asked for the newest messages.
        rows_moved(): rows were laid out again or scrolled; widgets placed over rows follow.
        menu_requested(QMenu, int): a row's context menu is being built (menu, row number);
            connected slots add their actions to it before it opens.
    """

    near_top = Signal()
    jump_requested = Signal(int)
    oldest_wanted = Signal()
    reload_requested = Signal()
    rows_moved = Signal()
    menu_requested = Signal(QMenu, int)

    def __init__(self, renderer: RowRenderer, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._settling = False
        self._shifting = False
        self._settled_span = (-1, -1, -1)
        self.pointer = PointerRow(self)
        self.in_place = InPlaceEdits(self, self.pointer)
        self._ahead = QTimer(self, singleShot=True, interval=0)
        self._ahead.timeout.connect(self._settle_ahead)
        self.session_bar = SessionScrollBar(self.verticalScrollBar(), self)
        self.session_bar.jump_requested.connect(self.jump_requested)
        self._configure()
        # Qt's bar keeps its range and value (wheel, keys, anchors) but the session bar is shown
        # in its place, in the same container, so the viewport's width never changes.
        self.verticalScrollBar().hide()
        self.addScrollBarWidget(self.session_bar, Qt.AlignmentFlag.AlignTop)
        # NOTE: the style sheet paints the background under a see-through viewport, and Qt scrolls
        # only opaque widgets by moving pixels: every scroll step repainted the whole viewport.
        # ``paintEvent`` fills what it repaints, so only the strip scrolled in is drawn.
        self.viewport().setAttribute(Qt.WidgetAttribute.WA_OpaquePaintEvent)
        self.timeline_delegate = TimelineDelegate(renderer, self.viewport(), self)
        self.setItemDelegate(self.timeline_delegate)
        self.placeholder = self.tr("No messages yet.")
        self._stick = True
        self._anchor: tuple[QPersistentModelIndex, int] | None = None
        self._relayout = QTimer(self, singleShot=True, interval=80)
        self._relayout.timeout.connect(self._relayout_now)
        self._grown: set[str] = set()
        self._last_stream_paint = 0.0
        self._stream_cost = 0.0
        """GUI-thread CPU seconds of the last streaming repaint so far (measured, then painted)."""
        self._stream_painting = False
        self.cpu_clock: Callable[[], float] = time.thread_time
        """This thread's CPU seconds (what a streaming repaint costs; tests pass a fake clock)."""
        self._stream_timer = QTimer(self, singleShot=True)
        self._stream_timer.timeout.connect(self._show_grown)

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
            old.page_arriving.disconnect(self.timeline_delegate.estimate_rows)
            old.stream_grew.disconnect(self._on_stream_grew)
            old.detached_changed.disconnect(self._update_jump)
            old.modelReset.disconnect(self._on_reset)
        super().setModel(model)
        if model is not None:
            model.rows_shifting.connect(self._on_rows_shifting)
            model.page_arriving.connect(self.timeline_delegate.estimate_rows)
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
        self._grown.clear()
        self._stick = True
        self._anchor = None
        self._update_jump()

    def _on_stream_grew(self, row: int) -> None:
        """A streaming reply grew: show it at the next repaint slot, at most ``STREAM_REPAINT_MS``
        apart (the bridge flushes up to 30 times a second; measuring and painting the tail each
        time was most of the window's streaming CPU, issue 14)."""
        model = self.timeline()
        stream = model.row_at(row) if model is not None and 0 <= row < model.rowCount() else None
        if not isinstance(stream, StreamRow):
            return
        self._grown.add(stream.message_id)  # rows may move before the slot: kept by identity
        if not self._stream_timer.isActive():
            wait = self._stream_interval_ms - (time.perf_counter() - self._last_stream_paint) * 1000
            if wait <= 0:
                self._show_grown()
            else:
                self._stream_timer.start(int(wait))

    @property
    def _stream_interval_ms(self) -> int:
        """How long the next streaming repaint waits after the last (paced by what it cost)."""
        return stream_repaint_interval_ms(self._stream_cost)

    def _show_grown(self) -> None:
        self._last_stream_paint = time.perf_counter()
        started = self.cpu_clock()
        grown, self._grown = self._grown, set()
        model = self.timeline()
        for message_id in grown:
            row = model.stream_position(message_id) if model is not None else None
            if row is not None:
                self._repaint_stream(row)
        self._stream_cost = self.cpu_clock() - started
        self._stream_painting = True  # the paint it asked for adds to the cost

    def _repaint_stream(self, row: int) -> None:
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
        """Rows above the viewport are inserted or removed: keep the anchor (or the bottom) in
        place, as one compensated edit (``InPlaceEdits``: nothing on screen moved, so nothing is
        repainted, issue 14)."""
        if starting:
            if not self._shifting:
                self._shifting = True
                self.in_place.begin()
            self._anchor = None if self._stick else self._capture_anchor()
            return
        if not self._shifting:
            return
        try:
            try:
                self.executeDelayedItemsLayout()
                if self._stick:
                    self.scrollToBottom()
                elif self._anchor is not None:
                    self._restore_anchor(self._anchor)
            finally:
                self._anchor = None
                self._shifting = False
            self._settle()
        finally:
            self.in_place.end()
        self._maybe_near_top()

    # ---- settling estimated heights -------------------------------------------------------

    def _settle(self) -> None:
        """Rows on screen (and just above and below) get their real heights before painting.

        Estimated rows there are measured; rows whose real height differs from the one the view
        laid out are refreshed in one go, keeping the first unchanged row on screen where it is
        (or the bottom when following). Called after every layout and scroll, and from
        ``paintEvent`` as a last resort, so no row is ever painted at an estimated height.
        """
        model = self.timeline()
        if self._settling or self._shifting or model is None or model.rowCount() == 0:
            return
        self._settling = True
        try:
            for _ in range(4):  # a corrected height can bring further estimated rows on screen
                if not self._refresh_stale(model):
                    return
        finally:
            self._settling = False

    def _rows_near(self, model: TimelineModel, margin: int) -> list[tuple[int, int]]:
        """(row, top) of the rows within ``margin`` px of the viewport, nearest first."""
        top_index = self.indexAt(QPoint(1, 1))
        start = top_index.row() if top_index.isValid() else 0
        y0 = self.visualRect(model.index(start, 0)).top()
        height = self.viewport().height()
        out: list[tuple[int, int]] = []
        y, row = y0, start
        while row < model.rowCount() and y < height + margin:
            out.append((row, y))
            y += self.rowHeight(model.index(row, 0))
            row += 1
        y, row = y0, start - 1
        while row >= 0 and y > -margin:
            y -= self.rowHeight(model.index(row, 0))
            out.append((row, y))
            row -= 1
        return out

    def _refresh_stale(self, model: TimelineModel) -> bool:
        """One settling pass; True when heights were refreshed."""
        delegate = self.timeline_delegate
        height = self.viewport().height()
        near = self._rows_near(model, NEAR_PX)
        stale = []
        for row, _top in near:
            index = model.index(row, 0)
            laid_out = self.rowHeight(index)
            if delegate.measure(index) != laid_out:
                stale.append(row)
        if not stale:
            return False
        # Rows measured ahead (``_settle_ahead``) are refreshed along, in the same layout pass.
        ahead = [r for r, _top in self._rows_near(model, height)
                 if delegate.is_measured(model.index(r, 0))
                 and delegate.measure(model.index(r, 0)) != self.rowHeight(model.index(r, 0))]
        changed = set(stale) | set(ahead)
        keep = next(((r, top) for r, top in sorted(near, key=lambda rt: rt[1])
                     if r not in changed and 0 <= top < height), None)
        anchor = None if self._stick or keep is None else (
            QPersistentModelIndex(model.index(keep[0], 0)), keep[1])
        # Corrected rows above the viewport with the anchor put back move nothing on screen.
        with self.in_place.edit():
            model.refresh_rows(min(changed), max(changed))
            if self._stick:
                self.scrollToBottom()
            elif anchor is not None:
                self._restore_anchor(anchor)
        self._ahead.start()  # corrected heights move other rows into reach
        return True

    def _settle_ahead(self) -> None:
        """Measure the rows a screen above and below, a few milliseconds per pass, so that
        scrolling finds them measured (refreshed by ``_settle`` when they come near)."""
        model = self.timeline()
        if model is None or model.rowCount() == 0:
            return
        delegate = self.timeline_delegate
        deadline = time.perf_counter() + SETTLE_BUDGET_S
        for row, _top in self._rows_near(model, self.viewport().height()):
            index = model.index(row, 0)
            if not delegate.is_measured(index):
                if time.perf_counter() > deadline:
                    self._ahead.start()
                    return
                delegate.measure(index)

    @property
    def measuring_ahead(self) -> bool:
        """Rows around the viewport are still being measured, a few at a time (tests wait)."""
        return self._ahead.isActive()

    def _after_move(self, *, layout: bool) -> None:
        """After a layout pass or a scroll: settle, measure ahead, move the session bar.

        NOTE: a streamed reply scrolls the view by a few pixels per flush; while the same rows
        stay on screen and nothing was laid out, there is nothing to settle (streaming CPU).
        """
        span = self._visible_span()
        if not layout and span == self._settled_span:
            return
        self._settle()
        self._settled_span = self._visible_span()
        if not self._ahead.isActive():
            self._ahead.start()
        self.sync_session_bar()

    def dataChanged(self, top_left: QModelIndex | QPersistentModelIndex,
                    bottom_right: QModelIndex | QPersistentModelIndex,
                    roles: Sequence[int] = ()) -> None:
        """A changed row gets a new revision, i.e. an estimated height: the next paint settles it.

        NOTE: only the settled span is forgotten here (cheap); measuring waits for the paint, so
        a burst of changes is measured once. Without this a row that grew (a card placed at a
        tool call, a finished reply) kept its estimated height while the same rows were on screen.
        """
        super().dataChanged(top_left, bottom_right, list(roles))
        self._settled_span = (-1, -1, -1)

    def _visible_span(self) -> tuple[int, int, int]:
        bottom = self.viewport().height() - 1
        return (self.indexAt(QPoint(1, 1)).row(), self.indexAt(QPoint(1, bottom)).row(),
                self.model().rowCount() if self.model() is not None else 0)

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

    def _on_scrolled(self, _value: int) -> None:
        """Following ends when the person leaves the bottom.

        NOTE: the bar's value *now*, not the one the signal carries: a scroll's own handler
        (``scrollContentsBy``) may correct estimated rows and move the bottom, scrolling again,
        and Qt then delivers the first scroll's stale value here; taken at its word, every long
        reply that ended shorter than it streamed stopped the view following.
        """
        bar = self.verticalScrollBar()
        self._stick = bar.value() >= bar.maximum() - STICK_SLACK_PX
        self._update_jump()
        self._maybe_near_top()

    def _maybe_near_top(self) -> None:
        """Ask for older history when the viewport is within a screen and a half of the top.

        NOTE: not while rows are shifting: the layout after a page went in announces the new
        range before the anchor is put back, at the old scroll value near the top, and every page
        fetched a second one straight away (two inserts back to back; issue 14). The end of the
        shift asks again with the restored value.
        """
        model = self.timeline()
        if model is None or not model.has_older or model.loading or self._shifting:
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
        """After every layout pass: rows on screen settle, cards placed over rows move with them."""
        super().updateGeometries()
        self._after_move(layout=True)
        self.pointer.sync()
        self.rows_moved.emit()

    def scrollContentsBy(self, dx: int, dy: int) -> None:
        """Scroll the viewport's pixels and children; only the strip scrolled in is painted.

        NOTE: not ``QTreeView.scrollContentsBy``: it compares the pixel delta with a guessed
        count of *rows* on screen (viewport height / first row's height, ~3 for chat rows) and
        repaints the whole viewport for anything larger, i.e. on every wheel notch and flick;
        that full repaint was most of each frame while paging older history (issue 14). This is
        what it does for small deltas. (The view never scrolls sideways: no header to move.)
        """
        if not self.in_place.active:  # a compensating scroll: the pixels are where they belong
            self.viewport().scroll(dx, dy)
            self._update_jump()  # ``scroll`` moved the "Latest" button too; it stays in its corner
        bar = self.verticalScrollBar()
        # ``_on_scrolled`` says the same a moment later; settling must not follow a stale bottom
        self._stick = bar.value() >= bar.maximum() - STICK_SLACK_PX
        self._after_move(layout=False)
        self.pointer.sync()
        self.rows_moved.emit()

    def viewportEvent(self, event: QEvent) -> bool:
        """The pointer entered, moved over or left the rows: the hovered row may have changed."""
        handled = super().viewportEvent(event)
        if event.type() in _POINTER_EVENTS:
            self.pointer.sync()
        return handled

    def resizeEvent(self, event: QResizeEvent) -> None:
        """A new width changes every row's height: re-lay out once the resize settles."""
        super().resizeEvent(event)
        if event.size().width() != event.oldSize().width():
            if self._anchor is None and not self._stick:
                self._anchor = self._capture_anchor()
            self._relayout.start()
        self._update_jump()
        self.sync_session_bar()

    def sync_session_bar(self) -> None:
        """Show where the viewport is in the whole session on the session scroll bar."""
        model = self.timeline()
        window = model.window_seqs() if model is not None else None
        if model is None or window is None:
            self.session_bar.show_position(0, 0, 0, 1)
            return
        if model.oldest_seq is None and model.has_older:
            self.oldest_wanted.emit()
        first = model.oldest_seq if model.oldest_seq is not None else window[0]
        last = window[1] if not model.detached else max(window[1], model.newest_seq or window[1])
        top, bottom = self._seq_at(1, model, window[0]), self._seq_at(self.viewport().height() - 2,
                                                                       model, window[1])
        if self._stick and not model.detached:
            top = max(first, last - max(1, bottom - top))
        self.session_bar.show_position(first, last, top, bottom - top)

    def _seq_at(self, y: int, model: TimelineModel, default: int) -> int:
        """The seq of the stored message at viewport height ``y`` (or the nearest row above it)."""
        index = self.indexAt(QPoint(1, y))
        row = index.row() if index.isValid() else (model.rowCount() - 1 if y > 0 else 0)
        for i in range(row, -1, -1):
            found = model.row_at(i)
            if isinstance(found, MessageRow):
                return found.seq
        return default

    def show_row_at_top(self, row: int) -> None:
        """After a jump: ``row`` at the top of the viewport, measured (the session bar follows)."""
        model = self.timeline()
        if model is None or not 0 <= row < model.rowCount():
            return
        index = model.index(row, 0)
        self.timeline_delegate.measure(index)
        self.scrollTo(index, QAbstractItemView.ScrollHint.PositionAtTop)
        self._settle()
        self.scrollTo(index, QAbstractItemView.ScrollHint.PositionAtTop)  # heights settled above it
        self.sync_session_bar()

    def _relayout_now(self) -> None:
        self.scheduleDelayedItemsLayout()
        self.executeDelayedItemsLayout()
        if self._stick:
            self.scrollToBottom()
        elif self._anchor is not None:
            self._restore_anchor(self._anchor)
        self._anchor = None

    def paintEvent(self, event: QPaintEvent) -> None:
        """Rows, or a quiet placeholder when there are none (a streaming repaint's paint is timed
        for its pacing)."""
        if not self._stream_painting:
            self._paint(event)
            return
        started = self.cpu_clock()
        try:
            self._paint(event)
        finally:
            self._stream_painting = False
            self._stream_cost += self.cpu_clock() - started

    def _paint(self, event: QPaintEvent) -> None:
        model = self.model()
        theme.fill_background(self.viewport(), event.rect(), "base")
        if model is not None and model.rowCount() > 0:
            if self._visible_span() != self._settled_span:  # normally settled by layouts and scrolls
                self._settle()
                self._settled_span = self._visible_span()
            self.timeline_delegate.exposed = event.rect()
            self.timeline_delegate.hover_key = self.pointer.key()
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
