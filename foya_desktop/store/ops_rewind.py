"""History rewind in the database: targets, tracked file changes, the journal (sync; worker threads).

The journal row makes a rewind atomic across disk and database: it is
committed before any file is touched and deleted in the same transaction
that commits ``history_rewound``. A journal found at start-up means a crash
in between; recovery finishes the rewind (roll forward).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from foya_desktop.core.errors import InvalidOperation, NotFound
from foya_desktop.core.ids import now_ms
from foya_desktop.core.messages import Message
from foya_desktop.store import history
from foya_desktop.store.events_log import append_event, check_alive
from foya_desktop.store.history_view import row_in, view_of
from foya_desktop.store.ops_checkpoints import invalidate_checkpoints
from foya_desktop.store.schema import (
    FileChangeRow,
    MessageRow,
    RewindJournalRow,
    SubagentRow,
    TaskRow,
)


@dataclass(frozen=True, slots=True)
class TrackedChange:
    """One recorded file change (``kind`` ``tool``: contents known; ``command``: only the path)."""

    order: int
    path: str
    before_sha: str | None
    after_sha: str | None
    kind: str


@dataclass(frozen=True, slots=True)
class RewindTarget:
    """The user message to rewind to, with everything a preview needs."""

    message: Message
    head_seq: int
    workdir: str
    messages_removed: int
    changes: list[TrackedChange]


@dataclass(frozen=True, slots=True)
class Journal:
    """A confirmed rewind in progress."""

    id: str
    session_id: str
    message_id: str
    from_seq: int
    head_seq: int
    workdir: str
    plan: list[dict[str, Any]]


def rewind_target(session_id: str, message_id: str) -> RewindTarget:
    """Check the target is a valid user message of this session and collect the changes after it."""
    session = check_alive(session_id)
    view = view_of(session_id)
    row = row_in(view, message_id)
    if row is None:
        raise NotFound(f"No message {message_id} in session {session_id}.")
    if not row.valid:
        raise InvalidOperation("That message is no longer in the session's history.")
    if row.role != "user":
        raise InvalidOperation("Rewind goes back to one of your messages; pick a user message.")
    removed = view.count(MessageRow.seq >= row.seq)
    return RewindTarget(view.decode(row), session.head_seq, session.workdir, removed,
                        changes_since(session_id, row.seq))


def changes_since(session_id: str, from_seq: int) -> list[TrackedChange]:
    """File changes recorded for still-valid tool results at or after ``from_seq``, oldest first.

    Only the session's own tool results carry recorded changes (an inherited history's edits were
    made, and are rewound, in the session that made them). Includes the changes of sub-agents
    (recursively) whose spawning call is in that range: their edits are part of what the removed
    turns did.
    """
    valid = MessageRow.select(MessageRow.seq).where(
        (MessageRow.session == session_id) & history.VALID & (MessageRow.seq >= from_seq))
    rows = FileChangeRow.select().where((FileChangeRow.session == session_id)
                                        & FileChangeRow.seq.in_(valid))
    out = [TrackedChange(r.id, r.path, r.before_sha, r.after_sha, r.kind) for r in rows]
    children = (SubagentRow.select(SubagentRow.child_session_id).join(TaskRow)
                .where((TaskRow.session == session_id) & SubagentRow.parent_seq.in_(valid)))
    for child in children:
        out.extend(changes_since(child.child_session_id, 0))
    return sorted(out, key=lambda c: c.order)


def write_journal(journal: Journal) -> None:
    """Record the rewind about to happen, re-checking (inside the write lock) that nothing moved."""
    session = check_alive(journal.session_id)
    if session.head_seq != journal.head_seq or not history.is_valid(journal.session_id, journal.message_id):
        raise InvalidOperation("The session changed since the preview. Preview the rewind again.")
    RewindJournalRow.insert(id=journal.id, session=journal.session_id, message_id=journal.message_id,
                            from_seq=journal.from_seq, head_seq=journal.head_seq,
                            workdir=journal.workdir, plan=json.dumps(journal.plan),
                            created_at=now_ms()).execute()


def commit_rewind(journal: Journal) -> list[str]:
    """Log ``history_rewound``, shrink the projection, drop covering checkpoints, close the journal.

    Returns the ids of the invalidated checkpoints.
    """
    append_event(journal.session_id, "history_rewound",
                 {"from_seq": journal.from_seq, "message_id": journal.message_id})
    history.invalidate_from(journal.session_id, journal.from_seq)
    dropped = invalidate_checkpoints(journal.session_id, journal.from_seq)
    RewindJournalRow.delete().where(RewindJournalRow.id == journal.id).execute()
    return dropped


def drop_journal(journal_id: str) -> None:
    """Forget a rewind that was undone (its files are back as they were)."""
    RewindJournalRow.delete().where(RewindJournalRow.id == journal_id).execute()


def pending_journals() -> list[Journal]:
    """Rewinds interrupted by a crash, oldest first."""
    return [Journal(r.id, r.session_id, r.message_id, r.from_seq, r.head_seq, r.workdir,
                    json.loads(r.plan))
            for r in RewindJournalRow.select().order_by(RewindJournalRow.created_at)]
