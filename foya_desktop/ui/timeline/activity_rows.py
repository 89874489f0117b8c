"""Repainting only the timeline rows whose look follows what runs now.

A tool call without a result reads "running…", "queued", "waiting for your
approval" or "interrupted" depending on the session's phase and its pending
approvals (``call_outcome``). When a phase changes or an approval comes and
goes, those rows must be drawn again — and only those: repainting the whole
viewport on every phase change cost 3–5 ms of GUI time each, four to five times
per turn, and with the row insertions around them made the frames of the first
message into a long session the longest of the turn (issue 14).
"""

from __future__ import annotations

from PySide6.QtCore import QPoint

from foya_desktop.ui.timeline.call_outcome import follows_activity
from foya_desktop.ui.timeline.rows import MessageRow
from foya_desktop.ui.timeline.view import TimelineView


def repaint_activity_rows(view: TimelineView) -> int:
    """Schedule a repaint of each row on screen with a call whose outcome follows the activity;
    returns how many rows that was (tests)."""
    model = view.timeline()
    if model is None or model.rowCount() == 0:
        return 0
    viewport = view.viewport()
    top = view.indexAt(QPoint(1, 0))
    row = top.row() if top.isValid() else 0
    count = 0
    while row < model.rowCount():
        rect = view.visualRect(model.index(row, 0))
        if rect.top() >= viewport.height():
            break
        found = model.row_at(row)
        if isinstance(found, MessageRow) and any(follows_activity(call, found.results.get(call.call_id))
                                                 for call in found.message.tool_calls):
            viewport.update(rect)
            count += 1
        row += 1
    return count
