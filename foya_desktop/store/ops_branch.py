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
from foya_desktop.store.history_view import view_of
from foya_desktop.store.ops_copy import DeadCall, answered_after, dead_calls, tail_after, valid_message
from foya_desktop.store.schema import MessageRow


@dataclass(frozen=True, slots=True)
class BranchSource:
    """What a branch is made of, read in one go."""

    session: Session
    last: Message
    """The boundary: the valid message the branch ends with."""
    tail_after: int
    """The boundary's own turn starts after this seq: the branch copies it and inherits the rest."""
    dead: list[DeadCall]
    """Calls of the boundary's turn up to the boundary without a result up to it (in order); older
    turns have none (a stop or crash recovery closes every call)."""
    answered_later: set[str]
    """Call ids among ``dead`` whose result comes after the boundary."""
    active_turn: str
    """Turn id of the newest user message (the running turn, if one runs)."""


def branch_source(session_id: str, message_id: str) -> BranchSource:
    """The boundary and what the boundary checks need to know about the messages around it."""
    session = sessions.get_session(session_id)
    last = valid_message(session_id, message_id)
    after = tail_after(session_id, last.seq)
    dead = dead_calls(session_id, last.seq, after)
    answered = answered_after(session_id, last.seq, {c.call_id for c in dead})
    return BranchSource(session, last, after, dead, answered, _newest_turn(session_id))


def _newest_turn(session_id: str) -> str:
    row = next(view_of(session_id).rows(MessageRow.role == "user", newest_first=True, limit=1), None)
    return str(row.turn_id) if row is not None else ""


def create_branch(session: Session, messages: list[Message]) -> tuple[Session, list[Message]]:
    """Insert the new session and its copied messages together: a crash leaves all or nothing (merge)."""
    created = sessions.create_session(session)
    return created, history.append_messages(created.id, messages)
