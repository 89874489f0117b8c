"""Where a session may be branched or rewound: the rules, decided from messages alone.

One place for them (issue 7): the kernel refuses with these rules
(``branching.check_boundary``, ``rewind``), and the window's menus
(``ui/ops/boundaries.py``) offer an operation only where the kernel will
accept it — a menu that offers what the kernel refuses is a menu that lies.
Qt-free and store-free, so both sides import it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from foya_desktop.core.messages import ImagePart, Message, MessageStatus

NOT_MOVABLE_META = ("browser_elements", "command_id")
"""User-message metadata the composer cannot hold: such a message cannot be rewound to."""

BranchBlock = Literal["user_message", "incomplete_reply", "call_without_result", "answered_later"]
"""Why a branch cannot start after a message."""

RewindBlock = Literal["images", "not_movable_meta"]
"""Why a user message cannot go back to the composer."""


def branch_block(last: Message, answered_later: bool) -> BranchBlock | None:
    """Why a branch cannot start right after ``last`` (``None``: it can).

    ``answered_later``: a tool call before the boundary gets its result only
    after it (the branch would start with a question the model never got an
    answer to).
    """
    if last.role == "user":
        return "user_message"
    if last.role == "assistant" and last.status != MessageStatus.COMPLETE:
        return "incomplete_reply"
    if (last.role == "assistant" and last.tool_calls) or (last.role == "tool" and last.tool_result is None):
        return "call_without_result"
    if answered_later:
        return "answered_later"
    return None


def valid_boundaries(messages: Iterable[Message]) -> set[str]:
    """Ids of the messages a branch may start after, given the messages (sorted by seq here).

    Calls that never got a result at all (a stopped turn) do not block: the
    kernel closes them in the branch.
    """
    ordered = sorted(messages, key=lambda m: m.seq)
    result_at = {r.call_id: i for i, m in enumerate(ordered) if (r := m.tool_result) is not None}
    found: set[str] = set()
    latest_answer = -1
    for i, message in enumerate(ordered):
        for call in message.tool_calls:
            latest_answer = max(latest_answer, result_at.get(call.call_id, -1))
        if message.role in ("assistant", "tool") and branch_block(message, latest_answer > i) is None:
            found.add(message.id)
    return found


def latest_boundary(messages: Iterable[Message]) -> str | None:
    """The newest message a branch may start after ("Branch from latest reply")."""
    ordered = sorted(messages, key=lambda m: m.seq)
    valid = valid_boundaries(ordered)
    return next((m.id for m in reversed(ordered) if m.id in valid), None)


def rewind_block(message: Message) -> RewindBlock | None:
    """Why a user message cannot go back to the composer (``None``: it can)."""
    if any(isinstance(p, ImagePart) for p in message.parts):
        return "images"
    if any(key in message.meta for key in NOT_MOVABLE_META):
        return "not_movable_meta"
    return None
