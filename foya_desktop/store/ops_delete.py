"""Deleting a session tree in one transaction (sync; worker threads).

Rows go by ``ON DELETE CASCADE`` from the session row: events, projection,
file changes, artifact references, task records, checkpoints, rewind
journals — except the messages a branch or fork inherits, which are handed
to it first (``history_view.hand_over``). Each id is tombstoned so late writes fail, also after a restart.
The usage ledger has no foreign key and keeps the totals.
"""

from __future__ import annotations

from foya_desktop.core.ids import now_ms
from foya_desktop.store.history_view import hand_over
from foya_desktop.store.schema import (
    ArtifactRefRow,
    ArtifactRow,
    FileChangeRow,
    SessionRow,
    TombstoneRow,
)


def delete_sessions(session_ids: list[str]) -> list[str]:
    """Delete every listed session (children before parents) and tombstone them.

    Returns the hashes of blobs no remaining session references (images or
    file snapshots); the caller removes their files after the commit.
    """
    shas = _referenced_by(session_ids)
    now = now_ms()
    for sid in session_ids:
        hand_over(sid, None)  # branches inheriting its messages keep them
        TombstoneRow.insert(session_id=sid, deleted_at=now).on_conflict_ignore().execute()
        SessionRow.delete().where(SessionRow.id == sid).execute()
    orphans = sorted(shas - _still_referenced(shas))
    if orphans:
        ArtifactRow.delete().where(ArtifactRow.sha.in_(orphans)).execute()
    return orphans


def _referenced_by(session_ids: list[str]) -> set[str]:
    refs = {r.artifact_id for r in ArtifactRefRow.select(ArtifactRefRow.artifact)
            .where(ArtifactRefRow.session.in_(session_ids))}
    for row in FileChangeRow.select(FileChangeRow.before_sha, FileChangeRow.after_sha).where(
            FileChangeRow.session.in_(session_ids)):
        refs.update(s for s in (row.before_sha, row.after_sha) if s)
    return refs


def _still_referenced(shas: set[str]) -> set[str]:
    """The hashes among ``shas`` that some remaining row still points at."""
    found: set[str] = set()
    batch = sorted(shas)
    for start in range(0, len(batch), 400):
        chunk = batch[start:start + 400]
        found.update(r.artifact_id for r in ArtifactRefRow.select(ArtifactRefRow.artifact)
                     .where(ArtifactRefRow.artifact.in_(chunk)))
        for row in FileChangeRow.select(FileChangeRow.before_sha, FileChangeRow.after_sha).where(
                FileChangeRow.before_sha.in_(chunk) | FileChangeRow.after_sha.in_(chunk)):
            found.update(s for s in (row.before_sha, row.after_sha) if s in shas)
    return found


def leftover_rows(session_id: str) -> dict[str, int]:
    """Rows still holding ``session_id`` in any session-scoped table (tests: deletion completeness)."""
    from foya_desktop.store import schema
    counts: dict[str, int] = {}
    for table in schema.TABLES:
        field = table._meta.fields.get("session") or table._meta.fields.get("session_id")
        if field is None or table in (schema.TombstoneRow, schema.UsageRow):
            continue
        n = table.select().where(field == session_id).count()
        if n:
            counts[table.__name__] = int(n)
    n = SessionRow.select().where((SessionRow.id == session_id)
                                  | (SessionRow.parent_id == session_id)).count()
    if n:
        counts["SessionRow"] = int(n)
    return counts
