"""Task records (sync; worker threads)."""

from __future__ import annotations

from typing import Any, cast, get_args

from foya_desktop.core.errors import NotFound
from foya_desktop.core.records import TaskKind, TaskRecord, TaskState
from foya_desktop.store.events_log import check_alive
from foya_desktop.store.leases import current_lease
from foya_desktop.store.schema import TaskRow


def _record(row: TaskRow) -> TaskRecord:
    kind, state = str(row.kind), str(row.state)
    if kind not in get_args(TaskKind) or state not in get_args(TaskState):
        raise ValueError(f"task {row.id} has an unknown kind or state ({kind}, {state})")
    return TaskRecord(id=row.id, session_id=row.session_id, kind=cast(TaskKind, kind), title=row.title,
                      state=cast(TaskState, state), exit_code=row.exit_code, output_tail=row.output_tail,
                      consumed=bool(row.consumed), created_at=row.created_at,
                      finished_at=row.finished_at)


def insert_task(task: TaskRecord) -> TaskRecord:
    """Create a record for a session that is still alive."""
    check_alive(task.session_id)
    TaskRow.insert(id=task.id, session=task.session_id, kind=task.kind, title=task.title,
                   state=task.state, created_at=task.created_at, lease_id=current_lease()).execute()
    return get_task(task.id)


def update_task(task_id: str, cols: dict[str, Any]) -> TaskRecord:
    """Change state, exit code, output tail, consumed flag or finish time."""
    TaskRow.update(**cols).where(TaskRow.id == task_id).execute()
    return get_task(task_id)


def get_task(task_id: str) -> TaskRecord:
    """One record."""
    row = TaskRow.get_or_none(TaskRow.id == task_id)
    if row is None:
        raise NotFound(f"No task {task_id}.")
    return _record(row)


def list_tasks(session_id: str) -> list[TaskRecord]:
    """A session's records, newest first."""
    rows = TaskRow.select().where(TaskRow.session == session_id).order_by(TaskRow.created_at.desc())
    return [_record(r) for r in rows]


def mark_lost(live_leases: set[str] | frozenset[str] = frozenset()) -> int:
    """Jobs whose process is gone are ``lost`` (a live process's jobs are left alone)."""
    cond = TaskRow.state == "running"
    if live_leases:
        cond &= TaskRow.lease_id.is_null() | TaskRow.lease_id.not_in(list(live_leases))
    return int(TaskRow.update(state="lost").where(cond).execute())
