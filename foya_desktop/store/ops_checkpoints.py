"""Compaction checkpoints and the compaction policy (sync; worker threads).

A checkpoint is an event (``compaction_checkpoint``) plus a row that the
context compiler reads. It never removes messages: the timeline keeps
everything, only later model requests start from the summary.
"""

from __future__ import annotations

import json

from foya_desktop.core.ids import new_id, now_ms
from foya_desktop.core.records import Checkpoint
from foya_desktop.store.events_log import append_event
from foya_desktop.store.history_view import view_of
from foya_desktop.store.schema import CheckpointRow, MessageRow, MetaRow

POLICY_KEY = "compaction_policy"


def _checkpoint(row: CheckpointRow) -> Checkpoint:
    return Checkpoint(id=row.id, session_id=row.session_id, covers_seq=row.covers_seq,
                      summary=row.summary, seq=row.seq, created_at=row.created_at,
                      automatic=bool(row.automatic))


def add_checkpoint(session_id: str, covers_seq: int, summary: str, automatic: bool) -> Checkpoint:
    """Log and store a checkpoint covering every message with ``seq <= covers_seq``."""
    cid = new_id("cpt")
    seq = append_event(session_id, "compaction_checkpoint",
                       {"id": cid, "covers_seq": covers_seq, "summary": summary, "automatic": automatic})
    CheckpointRow.insert(id=cid, session=session_id, seq=seq, covers_seq=covers_seq, summary=summary,
                         automatic=automatic, created_at=now_ms()).execute()
    return _checkpoint(CheckpointRow.get_by_id(cid))


def latest_checkpoint(session_id: str) -> Checkpoint | None:
    """The valid checkpoint that covers the most history, if any."""
    row = (CheckpointRow.select()
           .where((CheckpointRow.session == session_id) & CheckpointRow.valid)
           .order_by(CheckpointRow.covers_seq.desc(), CheckpointRow.seq.desc()).first())
    return _checkpoint(row) if row is not None else None


def list_checkpoints(session_id: str) -> list[Checkpoint]:
    """Valid checkpoints, oldest first (timeline markers)."""
    rows = (CheckpointRow.select()
            .where((CheckpointRow.session == session_id) & CheckpointRow.valid)
            .order_by(CheckpointRow.covers_seq))
    return [_checkpoint(r) for r in rows]


def invalidate_checkpoints(session_id: str, from_seq: int) -> list[str]:
    """Drop checkpoints that summarise any message with ``seq >= from_seq``; returns their ids."""
    cond = ((CheckpointRow.session == session_id) & CheckpointRow.valid
            & (CheckpointRow.covers_seq >= from_seq))
    ids = [r.id for r in CheckpointRow.select(CheckpointRow.id).where(cond)]
    if ids:
        CheckpointRow.update(valid=False).where(CheckpointRow.id.in_(ids)).execute()
    return ids


def get_policy() -> dict[str, float]:
    """The stored compaction policy (``{}`` when never set: the engine's defaults apply)."""
    row = MetaRow.get_or_none(MetaRow.key == POLICY_KEY)
    return dict(json.loads(row.value)) if row is not None else {}


def set_policy(values: dict[str, float]) -> None:
    """Persist the compaction policy (threshold share, tool-output budget)."""
    MetaRow.insert(key=POLICY_KEY, value=json.dumps(values)).on_conflict_replace().execute()


def turn_start_seq(session_id: str, turn_id: str) -> int | None:
    """Seq of the user message that opened ``turn_id`` (``None`` if it is not in the valid history)."""
    row = next(view_of(session_id).rows((MessageRow.role == "user") & (MessageRow.turn_id == turn_id),
                                        limit=1), None)
    return int(row.seq) if row is not None else None
