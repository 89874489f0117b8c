"""Background commands of a session (``engine/tasks``): list, inspect, cancel."""

from __future__ import annotations

from typing import TYPE_CHECKING

from foya_desktop.core.records import TaskRecord

if TYPE_CHECKING:
    from foya_desktop.engine.services import Services


class Tasks:
    """The session's background task records."""

    def __init__(self, svc: Services) -> None:
        self._svc = svc

    async def list_tasks(self, session_id: str) -> list[TaskRecord]:
        """The session's background task records."""
        return await self._svc.tasks.list(session_id)

    async def inspect_task(self, session_id: str, task_id: str) -> TaskRecord:
        """One task with the live tail of its output."""
        return await self._svc.tasks.inspect(session_id, task_id)

    async def cancel_task(self, session_id: str, task_id: str) -> TaskRecord:
        """Stop a running background task."""
        return await self._svc.tasks.cancel(session_id, task_id)
