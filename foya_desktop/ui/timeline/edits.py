"""Row bookkeeping for the timeline model: insert, remove, attach, replace, stream.

Every change goes through ``begin…/end…`` or ``dataChanged`` for exactly the
rows affected, never a reset: the view then re-lays out one row (DESIGN §4).
A row's speaker header depends on the row above it, so edits also notify the
row just below the change.
"""

from __future__ import annotations

from PySide6.QtCore import QAbstractListModel, QModelIndex, QObject, Signal
from PySide6.QtGui import QFont

from foya_desktop.core.events import StreamStarted
from foya_desktop.core.messages import Message
from foya_desktop.ui.timeline.incremental import StreamingDocument
from foya_desktop.ui.timeline.rows import MessageRow, Row, StreamRow, new_revision


class RowEditsMixin(QAbstractListModel):
    """The rows list plus indexes by message id and tool call id.

    Signals:
        stream_grew(int): streamed text was appended to this row; the view decides between a
            cheap repaint of the tail and a re-layout (``refresh_row``) when the height changed.
    """

    stream_grew = Signal(int)

    def __init__(self, font: QFont, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._font = font
        self._rows: list[Row] = []
        self._ids: set[str] = set()
        self._calls: dict[str, MessageRow] = {}
        self.session_id: str | None = None
        self.detached = False

    # ---- live events ----------------------------------------------------------------------

    def add_message(self, message: Message) -> None:
        """A stored message: attach a tool result, replace the stream with its id, or append."""
        if message.session_id != self.session_id or message.id in self._ids or self.detached:
            return
        result = message.tool_result if message.role == "tool" else None
        owner = self._calls.get(result.call_id) if result is not None else None
        if result is not None and owner is not None:
            owner.results[result.call_id] = message
            self._ids.add(message.id)
            self._touch(owner)
            return
        stream = self._stream(message.id)
        if stream is not None:
            self._replace(stream, MessageRow(message))
            return
        self._insert_rows(self._tail_position(), [MessageRow(message)])
        self._trim_top()

    def update_message(self, message: Message) -> None:
        """A stored message changed in place (e.g. a tool call's state)."""
        for row in self._rows:
            if not isinstance(row, MessageRow):
                continue
            if row.message.id == message.id:
                row.message = message
                self._touch(row)
                return
            for call_id, result in row.results.items():
                if result.id == message.id:
                    row.results[call_id] = message
                    self._touch(row)
                    return

    def start_stream(self, event: StreamStarted) -> None:
        """A VP began a model step: open a streaming row at the bottom."""
        if event.session_id != self.session_id or self.detached:
            return
        row = self._new_stream_row(event.message_id, event.speaker, event.turn_id)
        self._insert_rows(len(self._rows), [row])

    def append_delta(self, session_id: str, message_id: str, kind: str, text: str) -> None:
        """Coalesced streamed text for one open stream."""
        if session_id != self.session_id:
            return
        row = self._stream(message_id)
        if row is not None:
            row.append(kind, text)
            self.stream_grew.emit(self._rows.index(row))

    def refresh_row(self, i: int) -> None:
        """Announce a changed row (the view calls this when a streaming row's height changed)."""
        self._changed(i)

    def refresh_rows(self, first: int, last: int) -> None:
        """Announce rows whose height the view learnt just now (estimates it measured)."""
        if 0 <= first <= last < len(self._rows):
            self.dataChanged.emit(self.index(first, 0), self.index(last, 0))

    def end_stream(self, session_id: str, message_id: str) -> None:
        """The stream is over; its stored message follows."""
        row = self._stream(message_id) if session_id == self.session_id else None
        if row is not None:
            row.ended = True
            self._touch(row)

    def finish_turn(self, session_id: str, turn_id: str) -> None:
        """Streams of a finished turn that never got a message are dropped."""
        if session_id != self.session_id:
            return
        for row in [r for r in self._rows if isinstance(r, StreamRow) and r.turn_id == turn_id]:
            i = self._rows.index(row)
            self._remove_range(i, i)

    def row_of_call(self, call_id: str) -> int | None:
        """Where the row that made this tool call is, if it is in the window."""
        row = self._calls.get(call_id)
        return self._rows.index(row) if row is not None else None

    def refresh_call(self, call_id: str) -> None:
        """Something drawn with a tool call changed (a card's state): re-measure its row."""
        row = self._calls.get(call_id)
        if row is not None:
            self._touch(row)

    def toggle_part(self, row_index: int, part_index: int) -> None:
        """Fold or unfold one part (reasoning, tool details) of a stored message."""
        row = self._rows[row_index]
        if isinstance(row, MessageRow):
            row.expanded ^= {part_index}
            self._touch(row)

    # ---- bookkeeping ----------------------------------------------------------------------

    def _reset_rows(self, session_id: str | None) -> None:
        self._rows, self._ids, self._calls = [], set(), {}
        self.session_id = session_id

    def _new_stream_row(self, message_id: str, speaker: str, turn_id: str) -> StreamRow:
        return StreamRow(message_id, speaker, turn_id, StreamingDocument(self._font))

    def _rows_from(self, messages: list[Message]) -> list[Row]:
        """Rows for a page, with each tool result attached to its call when the call is there."""
        rows: list[Row] = []
        calls: dict[str, MessageRow] = {}
        for message in messages:
            result = message.tool_result if message.role == "tool" else None
            if result is not None and result.call_id in calls:
                calls[result.call_id].results[result.call_id] = message
                continue
            row = MessageRow(message)
            calls.update((c.call_id, row) for c in message.tool_calls)
            rows.append(row)
        return rows

    def _append_rows(self, rows: list[Row]) -> None:
        if rows:
            self._insert_rows(len(self._rows), rows)

    def _prepend_rows(self, rows: list[Row]) -> int:
        """Insert an older page at the top, adopting results that were shown on their own.

        NOTE: anywhere in the window, not only near the top: a call closed by start-up recovery
        gets its result appended at the end of the session, maybe many pages later.
        """
        new_calls = {c.call_id: r for r in rows if isinstance(r, MessageRow) for c in r.message.tool_calls}
        orphans = [r for r in self._rows if isinstance(r, MessageRow) and r.message.role == "tool"] \
            if new_calls else []
        for orphan in orphans:
            result = orphan.message.tool_result
            if result is not None and result.call_id in new_calls:
                new_calls[result.call_id].results[result.call_id] = orphan.message
                i = self._rows.index(orphan)
                self._remove_range(i, i)
        if rows:
            self._insert_rows(0, rows)
        return len(rows)

    def _tail_position(self) -> int:
        """New stored messages go above replies still streaming."""
        pos = len(self._rows)
        while pos > 0 and isinstance(self._rows[pos - 1], StreamRow):
            pos -= 1
        return pos

    def _insert_rows(self, pos: int, rows: list[Row]) -> None:
        self.beginInsertRows(QModelIndex(), pos, pos + len(rows) - 1)
        self._rows[pos:pos] = rows
        for row in rows:
            self._index(row)
        self.endInsertRows()
        self._changed(pos + len(rows))

    def _remove_range(self, first: int, last: int) -> None:
        self.beginRemoveRows(QModelIndex(), first, last)
        for row in self._rows[first:last + 1]:
            self._unindex(row)
        del self._rows[first:last + 1]
        self.endRemoveRows()
        self._changed(first)

    def _replace(self, old: Row, new: Row) -> None:
        i = self._rows.index(old)
        self._unindex(old)
        self._rows[i] = new
        self._index(new)
        self._changed(i)

    def _index(self, row: Row) -> None:
        if isinstance(row, MessageRow):
            self._ids.add(row.message.id)
            self._ids.update(m.id for m in row.results.values())
            self._calls.update((c.call_id, row) for c in row.message.tool_calls)

    def _unindex(self, row: Row) -> None:
        if isinstance(row, MessageRow):
            self._ids.discard(row.message.id)
            self._ids.difference_update(m.id for m in row.results.values())
            for call in row.message.tool_calls:
                self._calls.pop(call.call_id, None)

    def _stream(self, message_id: str) -> StreamRow | None:
        """The open stream that becomes message ``message_id`` (streams sit at the tail)."""
        streams = (r for r in reversed(self._rows) if isinstance(r, StreamRow))
        return next((r for r in streams if r.message_id == message_id), None)

    def _touch(self, row: Row) -> None:
        row.revision = new_revision()
        self._changed(self._rows.index(row))

    def _changed(self, i: int) -> None:
        if 0 <= i < len(self._rows):
            index = self.index(i, 0)
            self.dataChanged.emit(index, index)

    def _trim_top(self) -> None:
        """Overridden by the model: keep the window bounded when appending."""
