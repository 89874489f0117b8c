"""Background jobs as persistent, session-scoped task records.

The process lives in memory; its record lives in SQLite, so after a restart
the person and the VP still see what ran (marked ``lost`` if it was cut off).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from dataclasses import replace
from pathlib import Path

from foya_desktop.core.errors import FoyaError, InvalidOperation
from foya_desktop.core.events import TaskChanged
from foya_desktop.core.ids import new_id, now_ms
from foya_desktop.core.records import TaskRecord
from foya_desktop.engine.bus import EventBus
from foya_desktop.store import tasks as task_rows
from foya_desktop.store.store import Store
from foya_desktop.tools.process import ProcessHandle, start_process
from foya_desktop.tools.sandbox import SandboxPolicy

TAIL_BYTES = 64 * 1024

Canceller = Callable[[str, str], Awaitable[TaskRecord]]


class TaskManager:
    """Starts, watches, cancels and hands over background shell jobs."""

    def __init__(self, store: Store, bus: EventBus) -> None:
        self._store = store
        self._bus = bus
        self._procs: dict[str, ProcessHandle] = {}
        self._cancellers: dict[str, Canceller] = {}
        self._watchers: dict[str, asyncio.Task[None]] = {}
        self._redact: dict[int, Callable[[str], str]] = {}

    def set_canceller(self, kind: str, cancel: Canceller) -> None:
        """Who stops records of another kind (sub-agents are run by ``ChildAgents``)."""
        self._cancellers[kind] = cancel

    async def start_shell(self, session_id: str, command: str, workdir: Path,
                          env: dict[str, str], sandbox: SandboxPolicy | None = None,
                          redact: Callable[[str], str] | None = None) -> TaskRecord:
        """Start ``command`` in the background (confined when ``sandbox`` is given) and record it.

        ``redact`` replaces known secrets in its output before the output is stored or shown.
        """
        handle = await start_process(command, workdir, env, head=0, tail=TAIL_BYTES, sandbox=sandbox)
        if redact is not None:
            self._redact[id(handle)] = redact
        record = TaskRecord(new_id("task"), session_id, "shell", command, "running", created_at=now_ms())
        try:
            record = await self._store.write(task_rows.insert_task, record)
        except BaseException:
            await handle.cancel()
            raise
        self._procs[record.id] = handle
        self._watchers[record.id] = asyncio.create_task(self._watch(record.id, handle))
        self._bus.publish(TaskChanged(session_id, record))
        return record

    async def _watch(self, task_id: str, handle: ProcessHandle) -> None:
        code = await handle.wait()
        self._procs.pop(task_id, None)
        current = await self._store.read(task_rows.get_task, task_id)
        state = current.state if current.state == "cancelled" else ("completed" if code == 0 else "failed")
        await self._finish(task_id, state, code, self._tail(handle))
        self._redact.pop(id(handle), None)

    async def _finish(self, task_id: str, state: str, code: int | None, tail: str) -> None:
        cols = {"state": state, "exit_code": code, "output_tail": tail[-TAIL_BYTES:],
                "finished_at": now_ms()}
        record = await self._store.write(task_rows.update_task, task_id, cols)
        self._bus.publish(TaskChanged(record.session_id, record))

    async def list(self, session_id: str) -> list[TaskRecord]:
        """A session's jobs, newest first, with live output for running ones."""
        return [self._live(t) for t in await self._store.read(task_rows.list_tasks, session_id)]

    async def inspect(self, session_id: str, task_id: str) -> TaskRecord:
        """One job of this session (live output tail while it runs)."""
        record = await self._store.read(task_rows.get_task, task_id)
        if record.session_id != session_id:
            raise InvalidOperation(f"Task {task_id} belongs to another session.")
        return self._live(record)

    def _live(self, record: TaskRecord) -> TaskRecord:
        handle = self._procs.get(record.id)
        return replace(record, output_tail=self._tail(handle)) if handle else record

    def _tail(self, handle: ProcessHandle) -> str:
        redact = self._redact.get(id(handle))
        return redact(handle.tail()) if redact is not None else handle.tail()

    async def cancel(self, session_id: str, task_id: str) -> TaskRecord:
        """Stop a running job: its whole process group, or the sub-agent's child session."""
        record = await self.inspect(session_id, task_id)
        if record.kind in self._cancellers and record.state == "running":
            return await self._cancellers[record.kind](session_id, task_id)
        handle = self._procs.get(task_id)
        if handle is None:
            return record
        await self._store.write(task_rows.update_task, task_id, {"state": "cancelled"})
        await handle.cancel()
        watcher = self._watchers.pop(task_id, None)
        if watcher is not None:
            await asyncio.gather(watcher, return_exceptions=True)
        return await self.inspect(session_id, task_id)

    async def consume(self, session_id: str, task_id: str) -> TaskRecord:
        """Take a finished job's result (marks it consumed)."""
        record = await self.inspect(session_id, task_id)
        if record.state == "running":
            raise InvalidOperation(f"Task {task_id} is still running; inspect it or wait.")
        record = await self._store.write(task_rows.update_task, task_id, {"consumed": True})
        self._bus.publish(TaskChanged(session_id, record))
        return record

    async def cancel_session(self, session_id: str) -> None:
        """Stop every running job of a session (before deleting it)."""
        for record in await self.list(session_id):
            if record.state == "running":
                await self.cancel(session_id, record.id)

    async def close(self) -> None:
        """Stop every job (the app is quitting): recorded ``cancelled`` first, so the kill's
        non-zero exit is not mistaken for the job failing."""
        for task_id, handle in list(self._procs.items()):
            with contextlib.suppress(FoyaError, RuntimeError):
                await self._store.write(task_rows.update_task, task_id,
                                        {"state": "cancelled", "finished_at": now_ms()})
            with contextlib.suppress(ProcessLookupError):
                await handle.cancel(grace=0.5)
        for watcher in list(self._watchers.values()):
            watcher.cancel()
        await asyncio.gather(*self._watchers.values(), return_exceptions=True)
