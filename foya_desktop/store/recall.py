"""What scoped recall reads of sibling sessions (sync; worker threads; ``engine.memory.context``).

Never a transcript: per sibling only its title and id, its latest compaction
summary, or — without one — the opening request and the latest reply, clipped.
"""

from __future__ import annotations

from dataclasses import dataclass

from foya_desktop.store.history_view import view_of
from foya_desktop.store.ops_checkpoints import latest_checkpoint
from foya_desktop.store.schema import MessageRow, SessionRow


@dataclass(frozen=True, slots=True)
class SiblingDigest:
    """The raw material of one sibling's summary."""

    session_id: str
    title: str
    checkpoint: str
    """The latest valid compaction summary ("" when none)."""
    first_request: str
    latest_reply: str


def sibling_digests(session_id: str, project_id: str, limit: int) -> list[SiblingDigest]:
    """Top-level sessions of the project other than ``session_id``, most recently active first."""
    rows = (SessionRow.select().where((SessionRow.project == project_id) & (SessionRow.id != session_id)
                                      & SessionRow.parent_id.is_null())
            .order_by(SessionRow.updated_at.desc()).limit(limit))
    out = []
    for row in rows:
        checkpoint = latest_checkpoint(row.id)
        first = _text(row.id, "user", newest=False)
        out.append(SiblingDigest(row.id, row.title, checkpoint.summary if checkpoint else "",
                                 first, _text(row.id, "assistant", newest=True)))
    return out


def _text(session_id: str, role: str, *, newest: bool) -> str:
    view = view_of(session_id)
    for row in view.rows(MessageRow.role == role, newest_first=newest, limit=20):
        text = view.decode(row).text.strip()
        if text:
            return text
    return ""
