"""Tools that let a VP run commands in the background and manage their task records."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any

from foya_desktop.core.errors import FoyaError, ToolError
from foya_desktop.core.records import TaskRecord
from foya_desktop.engine.tasks.manager import TaskManager
from foya_desktop.tools.base import Action, Tool, ToolContext, ToolOutput
from foya_desktop.tools.shell import RunCommandTool, command_env

_TASK_ID = {"type": "object", "properties": {"task_id": {"type": "string"}}, "required": ["task_id"]}


def _describe(t: TaskRecord, *, output: bool) -> str:
    code = "" if t.exit_code is None else f", exit code {t.exit_code}"
    head = f"{t.id} [{t.state}{code}{', consumed' if t.consumed else ''}] {t.title}"
    return f"{head}\n{t.output_tail[-8000:]}" if output else head


def _task_id(args: dict[str, Any]) -> str:
    value = args.get("task_id")
    if not isinstance(value, str) or not value:
        raise ToolError("'task_id' is required.")
    return value


class RunBackgroundTool:
    """Start a long command as a background task (same approval rules as run_command)."""

    name = "run_background"
    description = ("Start a long-running command (build, test suite, server) in the background in the "
                   "project folder. Returns a task id; check it with task_output, stop it with "
                   "task_cancel, collect the final result with task_result.")
    parameters = RunCommandTool.parameters

    def __init__(self, tasks: TaskManager) -> None:
        self._tasks = tasks
        self._shell = RunCommandTool()

    def plan(self, args: dict[str, Any], ctx: ToolContext) -> Action:
        """Same classification as a foreground command."""
        return self._shell.plan(args, ctx)

    async def run(self, args: dict[str, Any], ctx: ToolContext) -> ToolOutput:
        """Start it and return the task id at once."""
        record = await self._tasks.start_shell(ctx.session_id, str(args["command"]), ctx.workdir,
                                               command_env(str(args["command"]), ctx), ctx.sandbox,
                                               ctx.redact)
        return ToolOutput(f"Started background task {record.id}: {record.title}")


class _TaskTool(ABC):
    name = ""
    description = ""
    parameters: dict[str, Any] = _TASK_ID

    def __init__(self, tasks: TaskManager) -> None:
        self._tasks = tasks

    def plan(self, args: dict[str, Any], ctx: ToolContext) -> Action:
        """Managing the session's own jobs touches no files."""
        return Action(kind="other", summary=f"{self.name} {args.get('task_id', '')}".strip())

    async def run(self, args: dict[str, Any], ctx: ToolContext) -> ToolOutput:
        """Do it; errors come back as error results."""
        try:
            return ToolOutput(await self._act(args, ctx.session_id))
        except (FoyaError, ToolError) as exc:
            return ToolOutput(str(exc), is_error=True)

    @abstractmethod
    async def _act(self, args: dict[str, Any], session_id: str) -> str:
        """The tool's own work; returns the text for the model."""


class TaskListTool(_TaskTool):
    """List this session's background tasks."""

    name = "task_list"
    description = "List this session's background tasks with their state."
    parameters: dict[str, Any] = {"type": "object", "properties": {}}  # noqa: RUF012

    async def _act(self, args: dict[str, Any], session_id: str) -> str:
        tasks = await self._tasks.list(session_id)
        return "\n".join(_describe(t, output=False) for t in tasks) or "No background tasks."


class TaskOutputTool(_TaskTool):
    """Show a task's state and the tail of its output."""

    name = "task_output"
    description = "Show a background task's state and the tail of its output so far."

    async def _act(self, args: dict[str, Any], session_id: str) -> str:
        return _describe(await self._tasks.inspect(session_id, _task_id(args)), output=True)


class TaskCancelTool(_TaskTool):
    """Stop a running task."""

    name = "task_cancel"
    description = "Stop a running background task (its whole process group)."

    async def _act(self, args: dict[str, Any], session_id: str) -> str:
        return _describe(await self._tasks.cancel(session_id, _task_id(args)), output=False)


class TaskResultTool(_TaskTool):
    """Collect a finished task's result."""

    name = "task_result"
    description = "Collect the final output of a finished background task (marks it consumed)."

    async def _act(self, args: dict[str, Any], session_id: str) -> str:
        return _describe(await self._tasks.consume(session_id, _task_id(args)), output=True)


def task_tools(tasks: TaskManager) -> dict[str, Tool]:
    """The background-task tools bound to one manager."""
    tools: list[Tool] = [RunBackgroundTool(tasks), TaskListTool(tasks), TaskOutputTool(tasks),
             TaskCancelTool(tasks), TaskResultTool(tasks)]
    return {t.name: t for t in tools}
