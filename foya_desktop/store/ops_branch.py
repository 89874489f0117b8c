"""What a branch's boundary checks and a merge's shared prefix need to know, read with narrow
queries (sync; store threads).

The branch itself is made by ``ops_copy``; nothing here reads the prefix into ``Message``
objects: the last message, the boundary turn's calls without a result (one statement over
its tool rows) and which of those are answered later are all the rules need. A merge of two
sessions whose histories begin with the same stored rows (a session and its branch) inherits
that part too (:func:`create_merged`), after :func:`shared_prefix_fits` and
:func:`shared_prefix_attachments` tell what its rules need about it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from foya_desktop.core.messages import Message
from foya_desktop.core.model import Session
from foya_desktop.store import history, sessions
from foya_desktop.store.history_view import inherit, view_of
from foya_desktop.store.ops_copy import (
    DeadCall,
    answered_after,
    attachment_shas,
    dead_calls,
    tail_after,
    valid_message,
)
from foya_desktop.store.schema import MessageRow, database_proxy


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


def create_merged(session: Session, messages: list[Message], base_id: str = "",
                  through_seq: int = 0) -> tuple[Session, list[Message]]:
    """Insert the merged session — inheriting ``base_id``'s history up to ``through_seq`` when given
    — and its copied messages together: a crash leaves all or nothing."""
    created = sessions.create_session(session)
    if base_id and through_seq > 0:
        inherit(created.id, base_id, through_seq, set())
    return created, history.append_messages(created.id, messages)


_PREFIX_TURNS_SQL = ("SELECT count(*) FROM message_row AS m WHERE {view} AND m.valid = 1 AND m.seq <= ? "
                     "AND (m.turn_id = '' OR m.turn_id IN ({marks}))")
_PREFIX_ATTACHMENTS_SQL = ("SELECT m.parts FROM message_row AS m WHERE {view} AND m.valid = 1 AND m.seq <= ? "
                           "AND instr(m.parts, '\"artifact\"') > 0")
MAX_REST_TURNS = 500
"""More turns than this after the shared prefix: the merge reads both histories whole instead."""


def shared_prefix_fits(session_id: str, through_seq: int, later_turns: set[str]) -> bool:
    """Whether the valid history up to ``through_seq`` can be taken as a merge's common turns as it
    is: every message has a turn id and none of ``later_turns`` (the turns after it) appears in it
    (a turn split across the boundary). One statement; SQLite's work, not Python's."""
    if len(later_turns) > MAX_REST_TURNS:
        return False
    view, args = view_of(session_id).sql("m")
    marks = ", ".join("?" for _ in later_turns) or "NULL"
    found = database_proxy.execute_sql(_PREFIX_TURNS_SQL.format(view=view, marks=marks),
                                       (*args, through_seq, *sorted(later_turns))).fetchone()
    return int(found[0]) == 0


def shared_prefix_attachments(session_id: str, through_seq: int) -> set[str]:
    """The blobs the valid messages up to ``through_seq`` attach (only rows naming one are read)."""
    view, args = view_of(session_id).sql("m")
    shas: set[str] = set()
    for (parts,) in database_proxy.execute_sql(_PREFIX_ATTACHMENTS_SQL.format(view=view),
                                               (*args, through_seq)).fetchall():
        shas.update(attachment_shas(json.loads(parts)))
    return shas
