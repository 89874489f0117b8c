"""Memory entries in SQLite (sync; worker threads). The rules live in ``engine.memory``.

Session and session-VP entries reference their session with ``ON DELETE
CASCADE``, so deleting a session removes them in its transaction; user and VP
entries have no owning session and stay (their ``source_session_id`` is only a
note of where they were written).
"""

from __future__ import annotations

from foya_desktop.core.errors import NotFound
from foya_desktop.core.ids import new_id, now_ms
from foya_desktop.core.memory import MemoryEntry, MemoryScope
from foya_desktop.store.schema import MemoryRow


def _entry(row: MemoryRow) -> MemoryEntry:
    return MemoryEntry(id=row.id, scope=MemoryScope(row.scope), text=row.text, vp_id=row.vp_id,
                       session_id=row.session_id, author=row.author,
                       source_session_id=row.source_session_id, created_at=row.created_at,
                       updated_at=row.updated_at)


def add_memory(scope: MemoryScope, text: str, *, vp_id: str = "", session_id: str | None = None,
               author: str, source_session_id: str = "") -> MemoryEntry:
    """Store a new entry (the caller checked the scope's owner)."""
    now = now_ms()
    entry_id = new_id("mem")
    MemoryRow.insert(id=entry_id, scope=str(scope), text=text, vp_id=vp_id if scope.needs_vp else "",
                     session=session_id if scope.needs_session else None, author=author,
                     source_session_id=source_session_id, created_at=now, updated_at=now).execute()
    return get_memory(entry_id)


def get_memory(entry_id: str) -> MemoryEntry:
    """One entry (``NotFound`` names the id)."""
    row = MemoryRow.get_or_none(MemoryRow.id == entry_id)
    if row is None:
        raise NotFound(f"There is no memory entry {entry_id}.")
    return _entry(row)


def edit_memory(entry_id: str, text: str) -> MemoryEntry:
    """New text for an entry (who wrote it first stays recorded)."""
    get_memory(entry_id)
    MemoryRow.update(text=text, updated_at=now_ms()).where(MemoryRow.id == entry_id).execute()
    return get_memory(entry_id)


def remove_memory(entry_id: str) -> MemoryEntry:
    """Delete an entry; returns what it was."""
    entry = get_memory(entry_id)
    MemoryRow.delete().where(MemoryRow.id == entry_id).execute()
    return entry


def list_memory(scope: MemoryScope | None = None, *, vp_id: str | None = None,
                session_id: str | None = None) -> list[MemoryEntry]:
    """Entries oldest first, narrowed by scope, VP and owning session when given."""
    query = MemoryRow.select()
    if scope is not None:
        query = query.where(MemoryRow.scope == str(scope))
    if vp_id is not None:
        query = query.where(MemoryRow.vp_id == vp_id)
    if session_id is not None:
        query = query.where(MemoryRow.session == session_id)
    return [_entry(r) for r in query.order_by(MemoryRow.created_at, MemoryRow.id)]


def view_of(vp_id: str, session_id: str) -> list[MemoryEntry]:
    """What one VP sees in one session: user + its VP scope + its session-VP scope + the session scope."""
    user, vp, svp, ses = (str(MemoryScope.USER), str(MemoryScope.VP), str(MemoryScope.SESSION_VP),
                          str(MemoryScope.SESSION))
    query = MemoryRow.select().where(
        (MemoryRow.scope == user)
        | ((MemoryRow.scope == vp) & (MemoryRow.vp_id == vp_id))
        | ((MemoryRow.scope == svp) & (MemoryRow.vp_id == vp_id) & (MemoryRow.session == session_id))
        | ((MemoryRow.scope == ses) & (MemoryRow.session == session_id)))
    return [_entry(r) for r in query.order_by(MemoryRow.created_at, MemoryRow.id)]


def exists(entry_id: str) -> bool:
    """Whether the entry is stored."""
    return bool(MemoryRow.select().where(MemoryRow.id == entry_id).exists())
