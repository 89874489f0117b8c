"""Child sessions of sub-agents and their task records (sync; worker threads).

The task record itself is an ordinary ``TaskRow`` of the parent (kind
``subagent``), so the parent lists it with its background jobs; the
``SubagentRow`` beside it names the child session and the call that made it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from typing import Any

from foya_desktop.core.errors import NotFound
from foya_desktop.core.ids import now_ms
from foya_desktop.core.model import AgentMode, ApprovalMode, Session
from foya_desktop.core.records import TaskRecord
from foya_desktop.store import sessions, tasks
from foya_desktop.store.history_view import view_of
from foya_desktop.store.schema import MessageRow, SubagentRow, TaskRow


@dataclass(frozen=True, slots=True)
class ChildTask:
    """A sub-agent task record with the child session it runs in."""

    record: TaskRecord
    child_session_id: str
    call_id: str
    agent: str


@dataclass(frozen=True, slots=True)
class RunningCall:
    """A tool call of the parent that is executing right now."""

    call_id: str
    arguments: dict[str, Any]
    seq: int
    speaker: str


def create_child(child: Session, record: TaskRecord, call_id: str, parent_seq: int,
                 agent: str) -> ChildTask:
    """The child session, the parent's task record and the link, in one transaction."""
    sessions.create_session(child)
    stored = tasks.insert_task(record)
    SubagentRow.insert(task=record.id, child_session_id=child.id, call_id=call_id,
                       parent_seq=parent_seq, agent=agent).execute()
    return ChildTask(stored, child.id, call_id, agent)


def child_task(task_id: str) -> ChildTask:
    """One sub-agent task."""
    link = SubagentRow.get_or_none(SubagentRow.task == task_id)
    if link is None:
        raise NotFound(f"No sub-agent task {task_id}.")
    return ChildTask(tasks.get_task(task_id), link.child_session_id, link.call_id, link.agent)


def list_child_tasks(session_id: str) -> list[ChildTask]:
    """The sub-agent tasks of a parent session, newest first."""
    rows = (SubagentRow.select(SubagentRow, TaskRow).join(TaskRow)
            .where(TaskRow.session == session_id).order_by(TaskRow.created_at.desc()))
    return [ChildTask(tasks.get_task(r.task_id), r.child_session_id, r.call_id, r.agent) for r in rows]


def finish_child(task_id: str, state: str, output: str) -> TaskRecord:
    """Record how the sub-agent ended (``NotFound`` if the parent was deleted meanwhile)."""
    return tasks.update_task(task_id, {"state": state, "output_tail": output, "finished_at": now_ms()})


def running_calls(session_id: str, tool_name: str) -> list[RunningCall]:
    """Calls of ``tool_name`` in state ``running`` in the session's newest assistant messages."""
    rows = view_of(session_id).rows(MessageRow.role == "assistant", newest_first=True, limit=50)
    out = []
    for r in rows:
        for p in json.loads(r.parts):
            if p.get("kind") == "tool_call" and p.get("name") == tool_name and p.get("state") == "running":
                out.append(RunningCall(p["call_id"], dict(p["arguments"]), r.seq, r.speaker or ""))
    return out


def last_reply(session_id: str) -> str:
    """The newest assistant text of a session (a sub-agent's answer)."""
    for r in view_of(session_id).rows(MessageRow.role == "assistant", newest_first=True, limit=20):
        text = "".join(p.get("text", "") for p in json.loads(r.parts) if p.get("kind") == "text")
        if text.strip():
            return text
    return ""


APPROVAL_WIDTH = (ApprovalMode.READ_ONLY, ApprovalMode.ASK, ApprovalMode.AUTO_EDIT, ApprovalMode.AUTO)
"""Approval modes from the narrowest to the widest."""


def session_in_effect(session_id: str) -> Session:
    """A session's settings as its tools obey them: a child session is never wider than its parent.

    A sub-agent starts with its parent's approval and agent modes; the person may narrow the
    parent while the child runs (read-only, plan), from the window or another ``foya`` process,
    and the child follows at its next request or call. Widening the child alone changes nothing.
    """
    session = sessions.get_session(session_id)
    if session.parent_id is None:
        return session
    try:
        parent = sessions.get_session(session.parent_id)
    except NotFound:
        return session  # the parent is being deleted: the child is stopped with it
    approval = min(session.approval_mode, parent.approval_mode, key=APPROVAL_WIDTH.index)
    agent_mode = session.agent_mode if session.agent_mode != AgentMode.EXECUTE else parent.agent_mode
    return replace(session, approval_mode=approval, agent_mode=agent_mode)
