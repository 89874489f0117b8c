"""Compaction checkpoints in the timeline: where the marker rows go, and how they look.

A checkpoint covers the history up to a message seq; later model requests
start from its summary, but the timeline keeps every message (DESIGN §2). So
the person sees a marker line right after the last covered message.

The timeline is a window of the history (DESIGN §4), so a checkpoint may
cover a message that is not loaded yet. The mixin keeps the session's
checkpoints and places a marker whenever its spot is in the window: after the
page that opens a session, after older pages are prepended, and when a new
checkpoint arrives live. A marker above the window waits for its page.
"""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtCore import QCoreApplication, QObject, QRect, Qt
from PySide6.QtGui import QFont, QFontMetrics, QPen

from foya_desktop.core.records import Checkpoint
from foya_desktop.ui import theme
from foya_desktop.ui.timeline.canvas import Canvas
from foya_desktop.ui.timeline.edits import RowEditsMixin
from foya_desktop.ui.timeline.rows import CheckpointRow, MessageRow, Row, checkpoint_text

MARKER_HEIGHT = 34


class CheckpointRowsMixin(RowEditsMixin):
    """Marker rows for the checkpoints of the session in the model.

    Signals:
        (none of its own; rows are inserted through the usual ``begin/endInsertRows``)
    """

    def __init__(self, font: QFont, parent: QObject | None = None) -> None:
        super().__init__(font, parent)
        self._checkpoints: dict[str, Checkpoint] = {}
        self._placing = False

    def set_checkpoints(self, session_id: str, checkpoints: Iterable[Checkpoint]) -> None:
        """The session's valid checkpoints (from ``kernel.lifecycle.checkpoints``); others' are ignored."""
        if session_id != self.session_id:
            return
        self._checkpoints = {c.id: c for c in checkpoints if c.session_id == session_id}
        for i in reversed(range(len(self._rows))):
            row = self._rows[i]
            if isinstance(row, CheckpointRow) and row.checkpoint_id not in self._checkpoints:
                self._remove_range(i, i)
        self._place_checkpoints()

    def add_checkpoint(self, checkpoint: Checkpoint) -> None:
        """A checkpoint was written just now (``CompactionCheckpoint``)."""
        if checkpoint.session_id == self.session_id:
            self._checkpoints[checkpoint.id] = checkpoint
            self._place_checkpoints()

    def checkpoint_rows(self) -> list[CheckpointRow]:
        """The markers in the window, top to bottom (tests)."""
        return [r for r in self._rows if isinstance(r, CheckpointRow)]

    # ---- placement ------------------------------------------------------------------------

    def _reset_rows(self, session_id: str | None) -> None:
        super()._reset_rows(session_id)
        self._checkpoints = {}

    def _insert_rows(self, pos: int, rows: list[Row]) -> None:
        super()._insert_rows(pos, rows)
        if self._checkpoints and not self._placing:
            self._place_checkpoints()

    def _place_checkpoints(self) -> None:
        shown = {r.checkpoint_id for r in self._rows if isinstance(r, CheckpointRow)}
        self._placing = True
        try:
            for checkpoint in sorted(self._checkpoints.values(), key=lambda c: c.covers_seq):
                if checkpoint.id in shown:
                    continue
                pos = self._marker_position(checkpoint.covers_seq)
                if pos is not None:
                    row = CheckpointRow(checkpoint.id, checkpoint.covers_seq, checkpoint.summary,
                                        checkpoint.automatic)
                    self._insert_rows(pos, [row])
        finally:
            self._placing = False

    def _marker_position(self, covers_seq: int) -> int | None:
        """Right before the first message the checkpoint does not cover, if that is in the window."""
        messages = [(i, r) for i, r in enumerate(self._rows) if isinstance(r, MessageRow)]
        if not messages or messages[0][1].seq > covers_seq:
            return None  # nothing covered is loaded: the marker belongs above the window
        for i, row in messages:
            if row.seq > covers_seq:
                return i
        # NOTE: everything loaded is covered; the marker goes below unless newer rows are missing.
        return None if self.detached else self._tail_position()


# ---- painting ----------------------------------------------------------------------------

def walk_checkpoint(canvas: Canvas, row: CheckpointRow, font: QFont) -> None:
    """Measure or paint a marker: a dashed rule with the words in the middle."""
    top = canvas.y + 6
    height = MARKER_HEIGHT - 12
    canvas.y += MARKER_HEIGHT
    painter = canvas.painter
    if painter is None:
        return
    translate = QCoreApplication.translate
    text = (translate("Checkpoints", "↻ Auto-compacted · ") if row.automatic
            else translate("Checkpoints", "↻ Compacted · ")) + checkpoint_text()
    metrics = QFontMetrics(font)
    margin = 24
    text = metrics.elidedText(text, Qt.TextElideMode.ElideRight, max(60, canvas.width - 2 * margin - 40))
    text_width = metrics.horizontalAdvance(text) + 20
    box = QRect(canvas.left + (canvas.width - text_width) // 2, canvas.top + top, text_width, height)
    mid = box.center().y()
    color = theme.warning_color()
    painter.save()
    pen = QPen(color, 1, Qt.PenStyle.DashLine)
    painter.setPen(pen)
    painter.drawLine(canvas.left + margin, mid, box.left() - 6, mid)
    painter.drawLine(box.right() + 6, mid, canvas.left + canvas.width - margin, mid)
    painter.setRenderHint(painter.RenderHint.Antialiasing)
    painter.setPen(QPen(color, 1))
    painter.setBrush(theme.code_background())
    painter.drawRoundedRect(box, height / 2, height / 2)
    painter.setFont(font)
    painter.setPen(theme.dim_color())
    painter.drawText(box, Qt.AlignmentFlag.AlignCenter, text)
    painter.restore()
