"""Where a session may be branched or rewound, decided from messages alone (no Qt).

The kernel has the last word (it re-checks and refuses with a reason), but a
menu that offers an operation the kernel will refuse is a menu that lies. So
the window only offers "Branch from here" at a boundary the kernel accepts:
right after a complete assistant reply without tool calls, or after a tool
result, with no tool call before the boundary answered only after it. And it
says up front why "Rewind to here" is not possible on a message.
"""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtCore import QCoreApplication

from foya_desktop.core.messages import ImagePart, Message, MessageStatus
from foya_desktop.core.model import Phase
from foya_desktop.ui.timeline.rows import MessageRow

NOT_MOVABLE_META = ("browser_elements", "command_id")
"""User-message metadata the composer cannot hold (mirrors the kernel's rewind rule)."""


def valid_boundaries(messages: Iterable[Message]) -> set[str]:
    """Ids of the messages a branch may start after, given the messages in seq order.

    Calls whose result comes after a candidate make it invalid (the branch would
    start with a question the model never got an answer to). Calls that never got
    a result at all (a stopped turn) do not block: the kernel closes them.
    """
    ordered = sorted(messages, key=lambda m: m.seq)
    result_at = {r.call_id: i for i, m in enumerate(ordered) if (r := m.tool_result) is not None}
    found: set[str] = set()
    latest_answer = -1
    for i, message in enumerate(ordered):
        for call in message.tool_calls:
            latest_answer = max(latest_answer, result_at.get(call.call_id, -1))
        if latest_answer <= i and _ends_cleanly(message):
            found.add(message.id)
    return found


def _ends_cleanly(message: Message) -> bool:
    if message.role == "tool":
        return message.tool_result is not None
    return (message.role == "assistant" and message.status == MessageStatus.COMPLETE
            and not message.tool_calls)


def latest_boundary(messages: Iterable[Message]) -> str | None:
    """The newest message a branch may start after ("Branch from latest reply")."""
    ordered = sorted(messages, key=lambda m: m.seq)
    valid = valid_boundaries(ordered)
    return next((m.id for m in reversed(ordered) if m.id in valid), None)


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
    if any(isinstance(p, ImagePart) for p in message.parts):
        return QCoreApplication.translate("Boundaries", "messages with images cannot go back to the composer")
    if any(key in message.meta for key in NOT_MOVABLE_META):
        return QCoreApplication.translate(
            "Boundaries", "messages with browser elements or a command cannot go back to the composer"
        )
    if str(phase) != Phase.IDLE:
        return QCoreApplication.translate("Boundaries", "stop the running reply first")
    return None
