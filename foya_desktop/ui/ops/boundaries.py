"""Which rows of the timeline offer "Branch from here" and "Rewind to here" (no Qt).

The rules themselves live in ``engine/ops/eligibility.py``, shared with the
kernel; this module maps them onto timeline rows and the menu's wording.

The kernel has the last word (it re-checks and refuses with a reason), but a
menu that offers an operation the kernel will refuse is a menu that lies. So
the window only offers "Branch from here" at a boundary the kernel accepts:
right after a complete assistant reply without tool calls, or after a tool
result, with no tool call before the boundary answered only after it. And it
says up front why "Rewind to here" is not possible on a message.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from foya_desktop.core.messages import Message
from foya_desktop.core.model import Phase
from foya_desktop.engine.ops.eligibility import latest_boundary, rewind_block, valid_boundaries
from foya_desktop.ui.timeline.rows import MessageRow

__all__ = ["latest_boundary", "rewind_refusal", "row_boundary", "row_messages", "valid_boundaries"]


def row_messages(row: MessageRow) -> list[Message]:
    """A row's own message and the tool results drawn with it, in seq order."""
    return sorted([row.message, *row.results.values()], key=lambda m: m.seq)


def row_boundary(row: MessageRow, valid: set[str]) -> str | None:
    """The message to branch after when the person picks this row, if that is allowed.

    A call row with its results attached reads as one thing, so its boundary is
    after its last result; a call still waiting for a result has none.
    """
    if row.message.role == "user":
        return None
    if any(row.result_for(c.call_id) is None for c in row.message.tool_calls):
        return None
    last = row_messages(row)[-1]
    return last.id if last.id in valid else None


def rewind_refusal(message: Message, phase: Phase | str, read_only: bool = False) -> str | None:
    """Why "Rewind to here" cannot be offered on ``message`` now (``None``: it can)."""
    if message.role != "user":
        return QCoreApplication.translate("Boundaries", "only your own messages can be rewound to")
    if read_only:
        return QCoreApplication.translate("Boundaries", "a sub-agent's session is read-only")
    block = rewind_block(message)
    if block == "images":
        return QCoreApplication.translate("Boundaries", "messages with images cannot go back to the composer")
    if block == "not_movable_meta":
        return QCoreApplication.translate(
            "Boundaries", "messages with browser elements or a command cannot go back to the composer")
    if str(phase) != Phase.IDLE:
        return QCoreApplication.translate("Boundaries", "stop the running reply first")
    return None
