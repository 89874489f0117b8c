"""``spawn_agent``: a VP delegates a bounded task to a sub-agent in a child session.

With ``wait`` (the default) the call returns the sub-agent's answer; without
it, a task id the VP follows with the task tools (``task_list``,
``task_output``, ``task_result``, ``task_cancel``). Sub-agents cannot spawn
sub-agents of their own: their tool snapshot never includes this tool. Who may be
started, and with which tools (never more than the caller's), is decided in
``engine.agents.spawning``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any

from foya_desktop.core.errors import FoyaError, ToolError
from foya_desktop.core.model import Session
from foya_desktop.core.records import TaskRecord
from foya_desktop.engine.agents.spawning import SPAWN_AGENT, child_tools, choose
from foya_desktop.engine.agents.vps import all_vps, roster_of
from foya_desktop.engine.ops.children import ChildAgents
from foya_desktop.engine.project_files.agent_files import AgentDefinition
from foya_desktop.engine.project_files.catalog import ProjectContext
from foya_desktop.store.ops_children import ChildTask, RunningCall, running_calls
from foya_desktop.store.sessions import get_session
from foya_desktop.tools.base import Action, Tool, ToolContext, ToolOutput
from foya_desktop.tools.common import arg_bool, arg_int, arg_str

Definitions = Callable[[Session], Awaitable[ProjectContext]]
"""A session → its project files (agent definitions from ``.claude/agents``, ``.foya/agents``)."""
DEFAULT_MAX_TURNS, MAX_TURNS = 15, 50

SPAWN_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "task": {"type": "string", "description": "What the sub-agent should do, self-contained: it "
                                                  "does not see this conversation."},
        "title": {"type": "string", "description": "A short title for the task record."},
        "agent": {"type": "string", "description": "Name of a VP of this session or of a sub-agent "
                                                   "definition listed in the system prompt (default: "
                                                   "yourself). It gets only tools you have too."},
        "max_turns": {"type": "integer", "description": f"Model steps it may take (1–{MAX_TURNS}, "
                                                        f"default {DEFAULT_MAX_TURNS})."},
        "wait": {"type": "boolean", "description": "Wait for its answer (default true). With false, "
                                                   "a task id comes back at once."},
    },
    "required": ["task"],
    "additionalProperties": False,
}


class SpawnAgentTool:
    """Start a sub-agent; the child session shows under the parent in the session tree."""

    name = SPAWN_AGENT
    description = ("Delegate a bounded task (research, an implementation step, a review) to a sub-agent "
                   "that works in its own child session with the same project folder and approval "
                   "rules. It does not see this conversation: describe the task completely.")
    parameters = SPAWN_SCHEMA

    def __init__(self, agents: ChildAgents, definitions: Definitions | None = None) -> None:
        self._agents = agents
        self._definitions = definitions
        self._claimed: set[str] = set()

    def plan(self, args: dict[str, Any], ctx: ToolContext) -> Action:
        """Starting a sub-agent changes nothing by itself; its own tools ask for their approvals."""
        title = _title(args)
        return Action(kind="other", summary=f"Start sub-agent: {title}")

    async def run(self, args: dict[str, Any], ctx: ToolContext) -> ToolOutput:
        """Spawn, then wait for the answer (cancelling the child if this call is cancelled)."""
        try:
            task, limited = await self._spawn(args, ctx)
        except (FoyaError, ToolError) as exc:
            return ToolOutput(f"Could not start the sub-agent: {exc}", is_error=True)
        if not arg_bool(args, "wait", default=True):
            return ToolOutput(f"Started sub-agent task {task.record.id} in child session "
                              f"{task.child_session_id}. Follow it with task_output, collect its answer "
                              f"with task_result, stop it with task_cancel.{limited}")
        try:
            record = await self._agents.wait(task.record.id)
        except asyncio.CancelledError:
            await asyncio.shield(self._agents.cancel(ctx.session_id, task.record.id))
            raise
        answer = _answer(await self._agents.consume(ctx.session_id, record.id), task)
        return replace(answer, content=answer.content + limited)

    async def _spawn(self, args: dict[str, Any], ctx: ToolContext) -> tuple[ChildTask, str]:
        """The started child, and a sentence naming the persona's tools it runs without ("" if none)."""
        prompt = arg_str(args, "task")
        max_turns = arg_int(args, "max_turns", default=DEFAULT_MAX_TURNS, low=1, high=MAX_TURNS)
        call = await self._claim(ctx, args)
        parent = await self._agents.store.read(get_session, ctx.session_id)
        roster = await roster_of(self._agents.store, parent)
        caller = next((vp for vp in roster if vp.id == call.speaker), None)
        if caller is None:
            raise ToolError(f"{call.speaker or 'The caller'} is no longer on this session's roster.")
        choice = choose(str(args.get("agent") or ""), caller, roster, await all_vps(self._agents.store),
                        await self._agent_files(parent))
        defined = choice.agent_file
        if defined and defined.max_turns and "max_turns" not in args:
            max_turns = min(defined.max_turns, MAX_TURNS)
        names, left_out = child_tools(choice, caller, self._agents.tool_names(parent, caller),
                                      self._agents.tool_names(parent, choice.persona))
        snapshot = replace(choice.persona, tools=names or ("(none)",), max_steps=max_turns)
        task = await self._agents.spawn(parent, call.call_id, call.seq, snapshot, prompt, _title(args))
        limited = (f"\n\n{snapshot.name} has only the tools you have too "
                   f"({', '.join(names) or 'none'}); left out: {', '.join(left_out)}.") if left_out else ""
        return task, limited

    async def _agent_files(self, parent: Session) -> tuple[AgentDefinition, ...]:
        """The agent files of the parent's project and of the person (none without a source)."""
        return (await self._definitions(parent)).agents if self._definitions is not None else ()

    async def _claim(self, ctx: ToolContext, args: dict[str, Any]) -> RunningCall:
        """The running call that started this sub-agent (by call id; by arguments if unknown)."""
        for call in await self._agents.store.read(running_calls, ctx.session_id, SPAWN_AGENT):
            mine = call.call_id == ctx.call_id if ctx.call_id else call.arguments == args
            if mine and call.call_id not in self._claimed:
                self._claimed.add(call.call_id)
                return call
        raise ToolError("the call that started this sub-agent is not recorded as running")


def _title(args: dict[str, Any]) -> str:
    title = args.get("title")
    if isinstance(title, str) and title.strip():
        return title.strip()[:80]
    task = args.get("task")
    return (task.strip().splitlines()[0][:60] if isinstance(task, str) and task.strip() else "sub-agent")


def _answer(record: TaskRecord, task: ChildTask) -> ToolOutput:
    head = f"Sub-agent task {record.id} (child session {task.child_session_id}) ended: {record.state}."
    body = record.output_tail or "(no answer)"
    return ToolOutput(f"{head}\n\n{body}", is_error=record.state != "completed")


def agent_tools(agents: ChildAgents, definitions: Definitions | None = None) -> dict[str, Tool]:
    """The sub-agent tool bound to one kernel's sub-agent manager (and the sessions' agent files)."""
    tool: Tool = SpawnAgentTool(agents, definitions)
    return {tool.name: tool}
