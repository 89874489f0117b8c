"""Reading a branch's source and writing the branch in one transaction (sync; worker threads)."""

from __future__ import annotations

import json
from dataclasses import dataclass

from foya_desktop.core.errors import InvalidOperation, NotFound
from foya_desktop.core.messages import Message
from foya_desktop.core.model import Session
from foya_desktop.store import history, sessions
from foya_desktop.store.codec import message_from_row
from foya_desktop.store.schema import MessageRow


@dataclass(frozen=True, slots=True)
class BranchSource:
    """What a branch is made of, read in one go."""

    session: Session
    prefix: list[Message]
    """Valid messages up to and including the boundary, oldest first."""
    answered_later: set[str]
    """Call ids in ``prefix`` whose result comes after the boundary."""
    active_turn: str
    """Turn id of the newest user message (the running turn, if one runs)."""


def branch_source(session_id: str, message_id: str) -> BranchSource:
    """The boundary's prefix and what the boundary checks need to know about later messages."""
    session = sessions.get_session(session_id)
    row = MessageRow.get_or_none(MessageRow.id == message_id)
    if row is None or row.session_id != session_id:
        raise NotFound(f"No message {message_id} in session {session_id}.")
    if not row.valid:
        raise InvalidOperation("That message is no longer in the session's history (it was rewound).")
    rows = (MessageRow.select()
            .where((MessageRow.session == session_id) & MessageRow.valid & (MessageRow.seq <= row.seq))
            .order_by(MessageRow.seq))
    prefix = [message_from_row(r) for r in rows]
    open_ids = _open_calls(prefix)
    return BranchSource(session, prefix, _answered_after(session_id, row.seq, open_ids),
                        _newest_turn(session_id))


def _open_calls(messages: list[Message]) -> set[str]:
    calls = {c.call_id for m in messages for c in m.tool_calls}
    answered = {r.call_id for m in messages if (r := m.tool_result) is not None}
    return calls - answered


def _answered_after(session_id: str, seq: int, call_ids: set[str]) -> set[str]:
    if not call_ids:
        return set()
    rows = MessageRow.select(MessageRow.parts).where(
        (MessageRow.session == session_id) & MessageRow.valid & (MessageRow.role == "tool")
        & (MessageRow.seq > seq))
    found = set()
    for r in rows:
        for part in json.loads(r.parts):
            if part.get("kind") == "tool_result" and part.get("call_id") in call_ids:
                found.add(part["call_id"])
    return found


def _newest_turn(session_id: str) -> str:
    row = (MessageRow.select(MessageRow.turn_id)
           .where((MessageRow.session == session_id) & MessageRow.valid & (MessageRow.role == "user"))
           .order_by(MessageRow.seq.desc()).first())
    return str(row.turn_id) if row is not None else ""


def create_branch(session: Session, messages: list[Message]) -> tuple[Session, list[Message]]:
    """Insert the new session and its copied messages together: a crash leaves all or nothing."""
    created = sessions.create_session(session)
    return created, history.append_messages(created.id, messages)
