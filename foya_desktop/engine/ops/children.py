"""Sub-agents: child sessions that run one delegated task, tracked as task records of the parent.

A child session has ``parent_id``, ``origin = "subagent:<call id>"`` and an
immutable ``child_snapshot`` — the agent definition, the tool names and the
step limit at creation. The child runs from that snapshot, never from the
catalog, so editing the VP later changes nothing for it. It has its own
history, tool events, usage (ledger rows under its id) and cancellation
(``kernel.turns.stop`` on the child, or cancelling its task). The parent sees a
``subagent`` task record it can list, inspect, cancel and consume.

The child never gets more than its caller: its tools are the caller's and the persona's
in common (``engine.agents.spawning``), it starts with the parent's approval and agent
modes, and while it runs it is held to the parent's (``store.ops_children.session_in_effect``).
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import asdict, replace

from foya_desktop.core.errors import FoyaError, InvalidOperation, NotFound
from foya_desktop.core.events import (
    MessageAdded,
    SessionChanged,
    TaskChanged,
    TurnFinished,
    TurnStarted,
    TurnStatus,
    turn_failed,
    turn_failure,
)
from foya_desktop.core.ids import new_id, now_ms
from foya_desktop.core.messages import Message, TextPart
from foya_desktop.core.model import VP, Phase, Session
from foya_desktop.core.records import TaskRecord
from foya_desktop.engine.permissions.toolbox import TOP_LEVEL
from foya_desktop.engine.services import Services
from foya_desktop.engine.session.scheduler import Scheduler
from foya_desktop.engine.turn.runner import VPRun, run_vp
from foya_desktop.engine.turn.tool_exec import TurnStopped
from foya_desktop.store import ops_children as rows
from foya_desktop.store.history import append_message
from foya_desktop.store.ops_children import ChildTask
from foya_desktop.store.sessions import get_session
from foya_desktop.store.tasks import update_task

log = logging.getLogger(__name__)

FINAL_STATES = ("completed", "failed", "cancelled", "lost")


class ChildAgents:
    """Starts, watches, cancels and hands over sub-agent runs."""

    def __init__(self, svc: Services, scheduler: Scheduler) -> None:
        self._svc = svc
        self._scheduler = scheduler
        self.store = svc.store
        self._runs: dict[str, asyncio.Task[None]] = {}

    def tool_names(self, parent: Session, agent: VP) -> list[str]:
        """The tools ``agent`` is offered in ``parent`` right now (what a snapshot is cut from)."""
        return [n for n in self._svc.tools.names_for(parent, agent) if n not in TOP_LEVEL]

    async def spawn(self, parent: Session, call_id: str, parent_seq: int, agent: VP, prompt: str,
                    title: str) -> ChildTask:
        """Create the child session and its task record, then start the run in the background."""
        child = _child_session(parent, call_id, agent, title)
        record = TaskRecord(new_id("task"), parent.id, "subagent", f"{agent.name}: {title}", "running",
                            created_at=now_ms())
        task = await self._svc.store.write(rows.create_child, child, record, call_id, parent_seq, agent.id)
        self._svc.bus.publish(SessionChanged(child.id, await self._svc.store.read(get_session, child.id)))
        self._svc.bus.publish(TaskChanged(parent.id, task.record))
        await self._start(child, task, agent, prompt)
        return task

    async def _start(self, child: Session, task: ChildTask, agent: VP, prompt: str) -> None:
        owner = self._scheduler.owner(child.id)
        await owner.claim("running a sub-agent")
        turn_id = new_id("turn")
        message = await self._svc.store.write(append_message, Message(
            id=new_id("msg"), session_id=child.id, role="user", parts=(TextPart(prompt),),
            turn_id=turn_id, created_at=now_ms(), meta={"targets": [agent.id], "from_parent": True}))
        self._svc.bus.publish(MessageAdded(child.id, message))
        vp_run = VPRun(child.id, turn_id, agent, [agent], owner, asyncio.Lock())
        run = owner.launch(self._run(task, vp_run, message), name=f"subagent-{task.record.id}")
        self._runs[task.record.id] = run
        await owner.set_phase(Phase.TURN)

    async def _run(self, task: ChildTask, run: VPRun, message: Message) -> TurnFinished:
        """The child's one turn; its owner publishes the returned ``TurnFinished`` once idle."""
        self._svc.bus.publish(TurnStarted(run.session_id, run.turn_id, message.id, (run.vp.id,)))
        state, error = "completed", ""
        failure: dict[str, object] | None = None
        try:
            await run_vp(self._svc, run)
        except asyncio.CancelledError:
            state = "cancelled"
        except TurnStopped:
            state = "cancelled"
        except FoyaError as exc:
            state, error = "failed", str(exc)
            failure = turn_failure(run.vp.name, exc.code, exc.params, error)
        except Exception as exc:
            log.exception("sub-agent run crashed")
            state, error = "failed", f"internal error ({type(exc).__name__}: {exc})"
            failure = turn_failure(run.vp.name, "internal_error", {"type": type(exc).__name__}, error)
        return await asyncio.shield(self._finish(task, run, state, error, failure))

    async def _finish(self, task: ChildTask, run: VPRun, state: str, error: str,
                      failure: dict[str, object] | None = None) -> TurnFinished:
        answer = await self._svc.store.read(rows.last_reply, run.session_id)
        output = answer if state == "completed" else "\n".join(x for x in (error, answer) if x)
        try:
            record = await self._svc.store.write(rows.finish_child, task.record.id, state, output)
            self._svc.bus.publish(TaskChanged(record.session_id, record))
        except NotFound:
            pass  # the parent was deleted meanwhile
        self._runs.pop(task.record.id, None)
        status: TurnStatus = ("completed" if state == "completed" else
                              "stopped" if state == "cancelled" else "error")
        code, params = ("", {}) if failure is None else turn_failed([failure])[1:]
        return TurnFinished(run.session_id, run.turn_id, status, error, run.usage, code, params)

    async def wait(self, task_id: str) -> TaskRecord:
        """Wait for a run to end (waiting is not cancelling: the caller cancels explicitly)."""
        run = self._runs.get(task_id)
        if run is not None:
            await asyncio.wait({run})  # unlike awaiting it, a cancelled waiter leaves the run alone
        return (await self._svc.store.read(rows.child_task, task_id)).record

    async def cancel(self, parent_id: str, task_id: str) -> TaskRecord:
        """Stop a running sub-agent (its partial reply is kept, marked interrupted)."""
        await self.inspect(parent_id, task_id)
        run = self._runs.get(task_id)
        if run is not None and not run.done():
            run.cancel()
            await asyncio.gather(run, return_exceptions=True)
        return (await self.inspect(parent_id, task_id)).record

    async def inspect(self, parent_id: str, task_id: str) -> ChildTask:
        """One sub-agent task of this parent."""
        task = await self._svc.store.read(rows.child_task, task_id)
        if task.record.session_id != parent_id:
            raise InvalidOperation(f"Task {task_id} belongs to another session.")
        return task

    async def list(self, parent_id: str) -> list[ChildTask]:
        """The parent's sub-agent tasks, newest first."""
        return await self._svc.store.read(rows.list_child_tasks, parent_id)

    async def consume(self, parent_id: str, task_id: str) -> TaskRecord:
        """Take a finished sub-agent's answer (marks the record consumed)."""
        task = await self.inspect(parent_id, task_id)
        if task.record.state not in FINAL_STATES:
            raise InvalidOperation(f"Task {task_id} is still running; inspect it or wait.")
        record = await self._svc.store.write(update_task, task_id, {"consumed": True})
        self._svc.bus.publish(TaskChanged(parent_id, record))
        return record


def _child_session(parent: Session, call_id: str, agent: VP, title: str) -> Session:
    now = now_ms()
    snapshot: dict[str, object] = {"agent": asdict(replace(agent, tools=())), "tools": list(agent.tools),
                                   "max_turns": agent.max_steps}
    return Session(
        id=new_id("ses"), title=title, project_id=parent.project_id, parent_id=parent.id,
        origin=f"subagent:{call_id}", connection=parent.connection, model=parent.model,
        reasoning_effort=parent.reasoning_effort, approval_mode=parent.approval_mode,
        agent_mode=parent.agent_mode, workdir=parent.workdir, roster=(agent.id,), default_vp=agent.id,
        created_at=now, updated_at=now, child_snapshot=snapshot)
