"""What a branch's boundary checks need to know, read with narrow queries (sync; writer thread).

The branch itself is copied inside SQLite (``ops_copy``); nothing here reads the prefix into
``Message`` objects: the last message, the prefix's calls without a result there (one
statement over its tool rows) and which of those are answered later are all the rules need.
"""

from __future__ import annotations

from dataclasses import dataclass

from foya_desktop.core.messages import Message
from foya_desktop.core.model import Session
from foya_desktop.store import history, sessions
from foya_desktop.store.ops_copy import DeadCall, answered_after, dead_calls, valid_message
from foya_desktop.store.schema import MessageRow


@dataclass(frozen=True, slots=True)
class BranchSource:
    """What a branch is made of, read in one go."""

    session: Session
    last: Message
    """The boundary: the valid message the branch ends with."""
    dead: list[DeadCall]
    """Calls up to the boundary without a result up to it (in order)."""
    answered_later: set[str]
    """Call ids among ``dead`` whose result comes after the boundary."""
    active_turn: str
    """Turn id of the newest user message (the running turn, if one runs)."""


def branch_source(session_id: str, message_id: str) -> BranchSource:
    """The boundary and what the boundary checks need to know about the messages around it."""
    session = sessions.get_session(session_id)
    last = valid_message(session_id, message_id)
    dead = dead_calls(session_id, last.seq)
    return BranchSource(session, last, dead, answered_after(session_id, last.seq, {c.call_id for c in dead}),
                        _newest_turn(session_id))


def _newest_turn(session_id: str) -> str:
    row = (MessageRow.select(MessageRow.turn_id)
           .where((MessageRow.session == session_id) & history.VALID & (MessageRow.role == "user"))
           .order_by(MessageRow.seq.desc()).first())
    return str(row.turn_id) if row is not None else ""


def create_branch(session: Session, messages: list[Message]) -> tuple[Session, list[Message]]:
    """Insert the new session and its copied messages together: a crash leaves all or nothing (merge)."""
    created = sessions.create_session(session)
    return created, history.append_messages(created.id, messages)
