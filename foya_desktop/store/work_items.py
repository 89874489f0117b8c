"""WorkItem and run rows of the Work Center (sync; run on the writer/reader threads).

The engine keeps the meaning (``engine/work/model.py``); this module keeps JSON dicts. A
change to a WorkItem is one function of its stored dict applied inside the write
transaction (:func:`change_item`), so two processes — the executor and a ``foya work
accept`` beside it — never lose each other's change.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from foya_desktop.core.errors import NotFound
from foya_desktop.core.ids import now_ms
from foya_desktop.core.model import Session
from foya_desktop.store.schema import WorkItemRow, WorkRunRow
from foya_desktop.store.sessions import create_session

Record = dict[str, Any]


def insert_item(record: Record) -> Record:
    """Store a new WorkItem."""
    WorkItemRow.insert(id=record["id"], title=record["title"], state=record["state"],
                       source_session_id=record["contract"]["source_session"], data=json.dumps(record),
                       created_at=record["created_at"], updated_at=record["updated_at"]).execute()
    return record


def get_item(item_id: str) -> Record:
    """One WorkItem (``NotFound`` with a sentence when there is none)."""
    row = WorkItemRow.get_or_none(WorkItemRow.id == item_id)
    if row is None:
        raise NotFound(f"No WorkItem {item_id} (see foya work list).")
    data: Record = json.loads(row.data)
    return data


def list_items() -> list[Record]:
    """Every WorkItem, newest first."""
    return [json.loads(r.data) for r in WorkItemRow.select().order_by(WorkItemRow.created_at.desc())]


def items_in(states: tuple[str, ...]) -> list[Record]:
    """WorkItems in these states."""
    return [json.loads(r.data) for r in WorkItemRow.select().where(WorkItemRow.state.in_(states))]


def change_item(item_id: str, change: Callable[[Record], Record]) -> Record:
    """Apply ``change`` to the stored WorkItem and store its result (one transaction)."""
    new = change(get_item(item_id))
    new["updated_at"] = now_ms()
    WorkItemRow.update(title=new["title"], state=new["state"], data=json.dumps(new),
                       updated_at=new["updated_at"]).where(WorkItemRow.id == item_id).execute()
    return new


def insert_run(run: Record, transcript: Session | None) -> Record:
    """Store a new run and, for a VP's run, the hidden session its transcript goes to."""
    if transcript is not None:
        create_session(transcript)
    WorkRunRow.insert(id=run["id"], item_id=run["item_id"], action_id=run["action_id"], data=json.dumps(run),
                      started_at=run["started_at"]).execute()
    return run


def change_run(run_id: str, changes: Record) -> Record:
    """Update fields of a run."""
    row = WorkRunRow.get_or_none(WorkRunRow.id == run_id)
    if row is None:
        raise NotFound(f"No run {run_id}.")
    data: Record = {**json.loads(row.data), **changes}
    WorkRunRow.update(data=json.dumps(data)).where(WorkRunRow.id == run_id).execute()
    return data


def runs_of(item_id: str, action_id: str | None = None) -> list[Record]:
    """The runs of a WorkItem (of one action), oldest first."""
    query = WorkRunRow.select().where(WorkRunRow.item_id == item_id)
    if action_id is not None:
        query = query.where(WorkRunRow.action_id == action_id)
    return [json.loads(r.data) for r in query.order_by(WorkRunRow.started_at, WorkRunRow.id)]
