"""A windowed, flat item model of one session's timeline.

The model never holds the whole session (DESIGN §4): it opens with the newest
page, pages older history in at the top when the view asks (Qt's
``fetchMore`` only fires at the bottom), and keeps at most ``MAX_ROWS`` rows.
If paging up pushes the window past that, the newest rows are dropped and the
model is *detached*: live messages are not appended (that would leave a hole)
until the view reloads the tail.

Rows are flat: a ``QAbstractListModel`` (its ``index``/``parent`` are C++, not
thousands of Python calls per layout pass) shown in a ``QTreeView``, because a
tree view re-lays out only the changed row on ``dataChanged`` while a list view
re-lays out all of them (DESIGN §4). Row mutation helpers live
in ``RowEditsMixin`` (timeline/edits.py) and compaction markers in
``CheckpointRowsMixin`` (timeline/checkpoints.py) to keep this file about paging.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

from PySide6.QtCore import QModelIndex, QObject, QPersistentModelIndex, Qt, Signal
from PySide6.QtGui import QFont

from foya_desktop.core.messages import Message
from foya_desktop.ui.timeline.checkpoints import CheckpointRowsMixin
from foya_desktop.ui.timeline.live import LiveStream
from foya_desktop.ui.timeline.rows import MessageRow, Row, StreamRow

PageLoader = Callable[[int | None, int], Awaitable[list[Message]]]
"""``(before_seq, limit) -> messages`` ascending by seq; ``None`` means the newest."""

AnyIndex = QModelIndex | QPersistentModelIndex

PAGE_GAP_S = 0.002
"""Between estimating an older page and inserting it, everything else on the loop gets a turn.

NOTE: not ``sleep(0)``: under qasync that is one timer turn, in which a coroutine whose own
sleep just ended (a frame probe, an engine task) is only made ready, so it still waited for
the insert too."""

ROW_ROLE = Qt.ItemDataRole.UserRole + 1
"""The ``Row`` object itself, for the delegate."""
HEADER_ROLE = Qt.ItemDataRole.UserRole + 2
"""Whether the row starts a speaker block (draws the speaker's name)."""


class TimelineModel(CheckpointRowsMixin):
    """One session's messages and in-flight replies, a window of at most ``MAX_ROWS`` rows.

    Signals:
        loading_changed(bool): a page request started or finished.
        detached_changed(bool): the window stopped (or resumed) ending at the newest message.
        rows_shifting(bool): True just before rows above the viewport are inserted or removed,
            False right after, so the view can keep what the person is reading in place.
        page_arriving(list, list): a page's rows and their speaker-header flags just before they
            are inserted at the top (an older page: one event-loop turn before), so the view
            estimates their heights and the pass that inserts them only lays them out (issue 14).
        stream_grew(int): (from RowEditsMixin) streamed text was appended to a row.
    """

    INITIAL_PAGE = 100
    PAGE = 150
    MAX_ROWS = 300
    """A layout pass asks every row for its height (Python calls from C++): at 1,000 rows the
    pass after paging in took 40–100 ms on this 2-core machine. QTreeView lays out *every* row
    again when rows are inserted at the top: ~10 µs a row, about half of it Qt's own
    (``indexRowSizeHint`` builds a style option per row; a plain QTreeView on a C++ model
    takes 2.3 ms for 400 rows), the rest two ``rowCount`` and one ``sizeHint`` call into
    Python. That pass is the longest frame while paging older history (issue 14), so the
    window is two pages (dozens of screens) and what paging pushes past it is trimmed."""

    loading_changed = Signal(bool)
    detached_changed = Signal(bool)
    rows_shifting = Signal(bool)
    page_arriving = Signal(object, object)

    def __init__(self, font: QFont, parent: QObject | None = None) -> None:
        super().__init__(font, parent)
        self._loader: PageLoader | None = None
        self._live: Callable[[], Iterable[LiveStream]] = tuple
        self.oldest_seq: int | None = None
        """The session's first message seq, once known (the session scroll bar's top)."""
        self.newest_seq: int | None = None
        """The session's newest message seq as last seen (the session scroll bar's bottom)."""
        self._generation = 0
        self._loading = False
        self._page_pending = False
        self.has_older = False
        self.detached = False

    # ---- loading -------------------------------------------------------------------------

    async def load(self, session_id: str | None, loader: PageLoader | None,
                   live: Callable[[], Iterable[LiveStream]] = tuple, *,
                   before_seq: int | None = None) -> None:
        """Show ``session_id``: its newest page plus any replies still streaming.

        Events keep arriving while the page loads: messages and streams they add stay below
        the page, and ``live`` is read only after the page arrived, so nothing shows twice.
        With ``before_seq`` the window ends just before that seq instead (find, search hits):
        it is detached from the newest messages until the person jumps back to them.
        """
        self._generation += 1
        generation = self._generation
        self.beginResetModel()
        if session_id != self.session_id:
            self.oldest_seq = self.newest_seq = None
        self._reset_rows(session_id)
        self._loader, self._live, self.has_older = loader, live, False
        self._set_detached(before_seq is not None)
        self.endResetModel()
        if session_id is None or loader is None:
            return
        messages = await self._fetch(loader, before_seq, self.INITIAL_PAGE)
        if generation != self._generation:
            return
        page = self._rows_from([m for m in messages if m.id not in self._ids])
        if page:
            self.page_arriving.emit(page, self.block_starts(page))
            self._insert_rows(0, page)
        shown = {r.message_id for r in self._rows if isinstance(r, StreamRow)} | self._ids
        if before_seq is None:
            self._append_rows(self._stream_rows(s for s in live() if s.message_id not in shown))
        self.has_older = len(messages) >= self.INITIAL_PAGE
        self._learn_bounds(messages, newest=before_seq is None)

    def _learn_bounds(self, messages: list[Message], *, newest: bool) -> None:
        if not messages:
            return
        if not self.has_older:
            self.oldest_seq = messages[0].seq
        if newest or self.newest_seq is None or messages[-1].seq > self.newest_seq:
            self.newest_seq = messages[-1].seq

    def window_seqs(self) -> tuple[int, int] | None:
        """The first and last stored message seq in the window."""
        first = next((r.seq for r in self._rows if isinstance(r, MessageRow)), None)
        last = next((r.seq for r in reversed(self._rows) if isinstance(r, MessageRow)), None)
        return (first, last) if first is not None and last is not None else None

    async def find_oldest_seq(self) -> int | None:
        """The session's first message seq: a bisection over seqs, ~20 one-row page queries.

        NOTE: seqs are global (the event log's), so the first seq of a session cannot be guessed;
        ``PageLoader`` answers "the newest message before X", which is enough to bisect.
        """
        window, loader, generation = self.window_seqs(), self._loader, self._generation
        if self.oldest_seq is not None or window is None or loader is None:
            return self.oldest_seq
        low, high = 0, window[0]  # invariant: the first seq is in [low, high]
        while low < high:
            middle = (low + high) // 2
            page = await loader(middle + 1, 1)
            if generation != self._generation:
                return None
            if page:
                high = page[0].seq
            else:
                low = middle + 1
        self.oldest_seq = high
        return high

    async def jump_to(self, seq: int) -> int | None:
        """Make the message at ``seq`` (or the nearest before it) part of the window; returns its
        row. Within the window nothing loads; elsewhere the window is reloaded around it
        (detached, like a search hit), or to the newest messages when ``seq`` is among them."""
        window, loader = self.window_seqs(), self._loader
        if window is None or loader is None or self.loading:
            return None
        oldest = self.oldest_seq if self.oldest_seq is not None else window[0]
        seq = max(seq, oldest)
        if not (window[0] <= seq <= window[1] or (seq <= window[0] and not self.has_older)):
            rows = max(1, sum(isinstance(r, MessageRow) for r in self._rows) - 1)
            per_message = max(1.0, (window[1] - window[0]) / rows)
            before = seq + int(per_message * self.INITIAL_PAGE * 0.8) + 1
            newest = self.newest_seq
            await self.load(self.session_id, loader, self._live,
                            before_seq=None if newest is not None and before > newest else before)
        return self.row_for_seq(seq)

    def row_for_seq(self, seq: int) -> int | None:
        """The row of the last stored message with a seq at most ``seq`` (else the first row)."""
        found = None
        for i, row in enumerate(self._rows):
            if isinstance(row, MessageRow):
                if row.seq > seq:
                    break
                found = i
        return found if found is not None else (0 if self._rows else None)

    async def fetch_older(self) -> int:
        """Page one batch of older messages in at the top; returns how many rows were added."""
        if self.loading or not self.has_older or self._loader is None or not self._rows:
            return 0
        generation = self._generation
        oldest = next((r.seq for r in self._rows if isinstance(r, MessageRow)), None)
        messages = await self._fetch(self._loader, oldest, self.PAGE)
        if generation != self._generation:
            return 0
        self.has_older = len(messages) >= self.PAGE
        if not self.has_older and messages:
            self.oldest_seq = messages[0].seq
        rows = self._rows_from([m for m in messages if m.id not in self._ids])
        if rows:
            self.page_arriving.emit(rows, self.block_starts(rows))
            self._page_pending = True  # still this page's request: no second one for it
            try:
                await asyncio.sleep(PAGE_GAP_S)  # the insert (a layout of every row): a frame of its own
            finally:
                self._page_pending = False
            if generation != self._generation:
                return 0
            rows = [r for r in rows if r.key not in self._ids]  # a live event may have shown one
        self.rows_shifting.emit(True)
        try:
            added = self._prepend_rows(rows)
            self._trim_bottom()
        finally:
            self.rows_shifting.emit(False)
        return added

    @property
    def loading(self) -> bool:
        """A page request is in flight (or its rows are about to be inserted)."""
        return self._loading or self._page_pending

    async def _fetch(self, loader: PageLoader, before: int | None, limit: int) -> list[Message]:
        self._loading = True
        self.loading_changed.emit(True)
        try:
            return await loader(before, limit)
        finally:
            self._loading = False
            self.loading_changed.emit(False)

    def _stream_rows(self, live: Iterable[LiveStream]) -> list[Row]:
        rows: list[Row] = []
        for stream in live:
            row = self._new_stream_row(stream.message_id, stream.speaker, stream.turn_id)
            for kind, text in (("reasoning", stream.reasoning), ("text", stream.text),
                               ("tool_args", stream.tool_args)):
                if text:
                    row.append(kind, text)
            row.ended = stream.ended
            rows.append(row)
        return rows

    def _trim_bottom(self) -> None:
        excess = len(self._rows) - self.MAX_ROWS
        if excess > 0:
            self._remove_range(len(self._rows) - excess, len(self._rows) - 1)
            self._set_detached(True)

    def _trim_top(self) -> None:
        """Appending at the tail: drop the oldest page when the window is full."""
        if len(self._rows) > self.MAX_ROWS + self.PAGE // 2:
            self.rows_shifting.emit(True)
            try:
                self._remove_range(0, self.PAGE - 1)
                self.has_older = True
            finally:
                self.rows_shifting.emit(False)

    def _set_detached(self, detached: bool) -> None:
        if detached != self.detached:
            self.detached = detached
            self.detached_changed.emit(detached)

    # ---- Qt model interface ---------------------------------------------------------------

    # NOTE: no ``flags`` override either: the view selects nothing (``NoSelection``), and every
    # Python override here is called from C++ for each row of each layout pass.

    def rowCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008
        """Rows in the window (children: none)."""
        return 0 if parent.isValid() else len(self._rows)

    def data(self, index: AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        """The row object, header flag, or plain text for copying and accessibility."""
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        row = self._rows[index.row()]
        if role == ROW_ROLE:
            return row
        if role == HEADER_ROLE:
            return self.starts_block(index.row())
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.AccessibleTextRole):
            return row.plain_text()
        return None

    def starts_block(self, i: int) -> bool:
        """A row shows its speaker's name when the speaker differs from the row above (the
        person's messages always do)."""
        found = self.row_and_header(i)
        return found is not None and found[1]

    @staticmethod
    def block_starts(rows: list[Row]) -> list[bool]:
        """``starts_block`` for each of ``rows`` once they are the first rows of the window."""
        return [_starts_block(rows, i) for i in range(len(rows))]

    def row_at(self, i: int) -> Row:
        """The row object at position ``i`` (tests, benchmarks)."""
        return self._rows[i]

    def row_and_header(self, i: int) -> tuple[Row, bool] | None:
        """The row at ``i`` and whether it starts a speaker block, if there is one (the delegate's
        height lookup for every row of every layout: one call)."""
        rows = self._rows
        if not 0 <= i < len(rows):
            return None
        return rows[i], _starts_block(rows, i)

    def stream_position(self, message_id: str) -> int | None:
        """Where the open stream of ``message_id`` is in the window (streams sit at the tail)."""
        for i in range(len(self._rows) - 1, -1, -1):
            row = self._rows[i]
            if isinstance(row, StreamRow) and row.message_id == message_id:
                return i
        return None

    def find_stream_row(self, message_id: str) -> StreamRow | None:
        """The row of an open stream, if it is in the window."""
        return next((r for r in self._rows if isinstance(r, StreamRow) and r.message_id == message_id),
                    None)


def _starts_block(rows: list[Row], i: int) -> bool:
    """The rule for a speaker's name over row ``i``: the person's messages always show it, any
    other row when its speaker differs from the row above."""
    row = rows[i]
    if isinstance(row, MessageRow) and row.message.role == "user":
        return True
    return i == 0 or rows[i - 1].speaker_key != row.speaker_key
