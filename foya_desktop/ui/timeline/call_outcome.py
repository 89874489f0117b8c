"""What a tool row says after the call: its outcome, or why it has none.

A call without a result reads "running…" only while its turn really runs.
The engine gives every call a result when a turn stops (stopped, rejected,
never started; ``engine/turn/runner.py``) and start-up recovery closes the
calls of a process that died, but the result can still be out of the
timeline's window, or not have arrived yet. So the row decides from what it
knows: the result and how it ended (``meta``), else the call's stored state,
else whether the session is running this turn right now and whether an
approval for this call is waiting.
"""

from __future__ import annotations

from typing import Literal, Protocol

from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QColor, QFont

from foya_desktop.core.messages import Message, ToolCallPart, ToolState
from foya_desktop.ui import theme
from foya_desktop.ui.timeline.canvas import Segment

Activity = Literal["approval", "running", ""]
"""``approval``: a request for this call waits for the person; ``running``: its turn runs; ``""``: neither."""


class CallActivity(Protocol):
    """Who knows what runs now (the window: the kernel's phases and pending approvals)."""

    def call_activity(self, session_id: str, turn_id: str, call_id: str) -> Activity:
        """What is happening with this call right now."""
        ...


def follows_activity(call: ToolCallPart, result: Message | None) -> bool:
    """Whether what ``outcome`` says of this call depends on what runs now (``CallActivity``):
    only a call with neither a result nor a final state. A row without such a call looks the
    same whatever the session's phase or approvals (the window repaints only rows with one)."""
    return result is None and call.state not in (ToolState.COMPLETED, ToolState.ERROR)


def outcome(message: Message, call: ToolCallPart, result: Message | None,
            activity: CallActivity | None, font: QFont) -> Segment | None:
    """The segment after the call, or ``None`` when the result's own summary says it."""
    translate = QCoreApplication.translate
    meta = result.meta if result is not None else {}
    if meta.get("denied"):
        return _seg(translate("ToolRows", "  ✗ denied"), theme.error_color(), font)
    if meta.get("not_started"):
        return _seg(translate("ToolRows", "  · not run (the turn stopped)"), theme.dim_color(), font)
    if meta.get("interrupted"):
        return _seg(translate("ToolRows", "  ⚠ interrupted"), theme.warning_color(), font)
    if result is not None:
        return None
    # NOTE: the order of what follows is ``follows_activity``'s rule: keep them together.
    if call.state == ToolState.COMPLETED:
        return _seg(translate("ToolRows", "  → done"), theme.dim_color(), font)
    if call.state == ToolState.ERROR:
        return _seg(translate("ToolRows", "  ✗ failed"), theme.error_color(), font)
    now = activity.call_activity(message.session_id, message.turn_id, call.call_id) if activity else "running"
    if now == "approval":
        return _seg(translate("ToolRows", "  · waiting for your approval"), theme.warning_color(), font)
    if now == "running" and call.state == ToolState.PENDING:  # the calls before it run first
        return _seg(translate("ToolRows", "  · queued"), theme.dim_color(), font)
    if now == "running":
        return _seg(translate("ToolRows", "  · running…"), theme.dim_color(), font)
    return _seg(translate("ToolRows", "  ⚠ interrupted"), theme.warning_color(), font)


def _seg(text: str, color: QColor, font: QFont) -> Segment:
    return Segment(text, color, font)
