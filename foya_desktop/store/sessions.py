"""Session metadata operations (sync; run on the writer/reader threads)."""

from __future__ import annotations

from typing import Any

from foya_desktop.core.errors import NotFound, SessionDeleted
from foya_desktop.core.ids import now_ms
from foya_desktop.core.model import Phase, Session
from foya_desktop.store.codec import change_columns, session_columns, session_from_row
from foya_desktop.store.events_log import append_event, check_alive
from foya_desktop.store.schema import (
    SessionRow,
    TombstoneRow,
)


def create_session(session: Session) -> Session:
    """Insert a session and its ``session_created`` event."""
    if TombstoneRow.get_or_none(TombstoneRow.session_id == session.id) is not None:
        raise SessionDeleted(f"Session id {session.id} belonged to a deleted session.")
    SessionRow.insert(**session_columns(session)).execute()
    append_event(session.id, "session_created", {"title": session.title, "origin": session.origin})
    return get_session(session.id)


def get_session(session_id: str) -> Session:
    """One session's metadata."""
    row = SessionRow.get_or_none(SessionRow.id == session_id)
    if row is None:
        raise NotFound(f"No session {session_id}.")
    return session_from_row(row)


def list_sessions() -> list[Session]:
    """All sessions: pinned first, then by sort order and most recent activity."""
    rows = SessionRow.select().order_by(SessionRow.pinned.desc(), SessionRow.sort_order,
                                        SessionRow.updated_at.desc())
    return [session_from_row(r) for r in rows]


def update_session(session_id: str, changes: dict[str, Any]) -> Session:
    """Change metadata fields and log a ``settings_changed`` event."""
    check_alive(session_id)
    cols = change_columns(changes)
    if cols:
        append_event(session_id, "settings_changed", cols)
        cols["updated_at"] = now_ms()
        SessionRow.update(**cols).where(SessionRow.id == session_id).execute()
    return get_session(session_id)


def bind_project(session_id: str, project_id: str, workdir: str) -> Session:
    """Bind an unbound session to a project (the caller checks the rule)."""
    append_event(session_id, "project_bound", {"project_id": project_id, "workdir": workdir})
    SessionRow.update(project=project_id, workdir=workdir).where(SessionRow.id == session_id).execute()
    return get_session(session_id)


def set_phase(session_id: str, phase: Phase) -> None:
    """Record the kernel's phase (visible to other processes; reset at start-up)."""
    SessionRow.update(phase=str(phase)).where(SessionRow.id == session_id).execute()


def phase_of(session_id: str) -> str:
    """The recorded phase ("" for an unknown session)."""
    row = SessionRow.get_or_none(SessionRow.id == session_id)
    return str(row.phase) if row is not None else ""


def reset_phases(exclude: set[str] | frozenset[str] = frozenset(), only: set[str] | None = None) -> int:
    """Sessions back to ``idle`` — except those a live process holds (``exclude``)."""
    cond = SessionRow.phase != str(Phase.IDLE)
    if exclude:
        cond &= SessionRow.id.not_in(list(exclude))
    if only is not None:
        cond &= SessionRow.id.in_(list(only))
    return int(SessionRow.update(phase=str(Phase.IDLE)).where(cond).execute())


def descendants(session_id: str) -> list[str]:
    """Child session ids, deepest first (deletion order)."""
    out: list[str] = []
    for child in SessionRow.select(SessionRow.id).where(SessionRow.parent_id == session_id):
        out.extend(descendants(child.id))
        out.append(child.id)
    return out


def is_tombstoned(session_id: str) -> bool:
    """Whether the id belongs to a deleted session."""
    return TombstoneRow.get_or_none(TombstoneRow.session_id == session_id) is not None
