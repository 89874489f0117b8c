"""Start-up repairs after a crash (sync; writer thread).

Tool calls that were ``pending`` or ``running`` when the previous process
died get an error result saying so, in the same transaction as the call's
final state: nothing is re-executed, and the next request tells the model
the truth instead of a repaired guess.
"""

from __future__ import annotations

import json
from dataclasses import replace

import peewee as pw

from foya_desktop.core.ids import new_id, now_ms
from foya_desktop.core.messages import Message, ToolCallPart, ToolResultPart, ToolState
from foya_desktop.store import history
from foya_desktop.store.codec import message_from_row
from foya_desktop.store.history_view import view_of
from foya_desktop.store.indexes import OPEN_CALLS_WHERE
from foya_desktop.store.schema import MessageRow

OPEN_STATES = (ToolState.PENDING, ToolState.RUNNING)


def interrupt_dangling_calls(running_text: str, pending_text: str, *,
                             exclude: set[str] | frozenset[str] = frozenset(),
                             only: set[str] | None = None) -> int:
    """Give every unanswered pending/running call an interrupted result; returns how many.

    Sessions in ``exclude`` (a live process runs them) are left alone; ``only``
    limits the repair to those sessions.
    """
    count = 0
    for found in open_call_messages(only):
        if found.session_id in exclude:
            continue
        answered = _answered(found.session_id, {c.call_id for c in found.tool_calls})
        current = found
        for call in found.tool_calls:
            if call.state not in OPEN_STATES or call.call_id in answered:
                continue
            text = running_text if call.state == ToolState.RUNNING else pending_text
            current = _close_call(current, call, text)
            count += 1
    return count


def open_call_messages(only: set[str] | None) -> list[Message]:
    """Valid assistant messages with a pending or running tool call (an index lookup)."""
    cond: pw.Node = pw.SQL(OPEN_CALLS_WHERE)  # the partial index's own terms: an index lookup, not a scan
    if only is not None:
        cond &= MessageRow.session.in_(list(only))
    return [message_from_row(r) for r in MessageRow.select().where(cond).order_by(MessageRow.session,
                                                                                  MessageRow.seq)]


def _answered(session_id: str, call_ids: set[str]) -> set[str]:
    rows = view_of(session_id).rows(MessageRow.role == "tool")
    found: set[str] = set()
    for r in rows:
        found.update(p["call_id"] for p in json.loads(r.parts)
                     if p.get("kind") == "tool_result" and p.get("call_id") in call_ids)
    return found


def _close_call(message: Message, call: ToolCallPart, text: str) -> Message:
    """Mark the call failed and store its interrupted result (one transaction with the caller's)."""
    parts = tuple(replace(p, state=ToolState.ERROR) if isinstance(p, ToolCallPart)
                  and p.call_id == call.call_id else p for p in message.parts)
    result = Message(id=new_id("msg"), session_id=message.session_id, role="tool",
                     parts=(ToolResultPart(call.call_id, call.name, text, is_error=True),),
                     speaker=message.speaker, turn_id=message.turn_id, created_at=now_ms(),
                     meta={"interrupted": True})
    stored_call, _ = history.complete_tool_call(replace(message, parts=parts), result, [])
    return stored_call
