"""``spawn_agent``: a VP delegates a bounded task to a sub-agent in a child session.

With ``wait`` (the default) the call returns the sub-agent's answer; without
it, a task id the VP follows with the task tools (``task_list``,
``task_output``, ``task_result``, ``task_cancel``). Sub-agents cannot spawn
sub-agents of their own: their tool snapshot never includes this tool.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any

from foya_desktop.core.errors import FoyaError, ToolError
from foya_desktop.core.model import OMNI, VP, Session
from foya_desktop.core.records import TaskRecord
from foya_desktop.engine.agents.vps import all_vps
from foya_desktop.engine.ops.children import ChildAgents
from foya_desktop.engine.project_files.agent_files import AgentDefinition
from foya_desktop.engine.project_files.catalog import ProjectContext
from foya_desktop.store.ops_children import ChildTask, RunningCall, running_calls
from foya_desktop.store.sessions import get_session
from foya_desktop.tools.base import Action, Tool, ToolContext, ToolOutput
from foya_desktop.tools.common import arg_bool, arg_int, arg_str

SPAWN_AGENT = "spawn_agent"
Definitions = Callable[[Session], Awaitable[ProjectContext]]
"""A session → its project files (agent definitions from ``.claude/agents``, ``.foya/agents``)."""
DEFAULT_MAX_TURNS, MAX_TURNS = 15, 50

SPAWN_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "task": {"type": "string", "description": "What the sub-agent should do, self-contained: it "
                                                  "does not see this conversation."},
        "title": {"type": "string", "description": "A short title for the task record."},
        "agent": {"type": "string", "description": "Name of the persona or of a sub-agent definition "
                                                   "listed in the system prompt (default: yourself)."},
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
            task = await self._spawn(args, ctx)
        except (FoyaError, ToolError) as exc:
            return ToolOutput(f"Could not start the sub-agent: {exc}", is_error=True)
        if not arg_bool(args, "wait", default=True):
            return ToolOutput(f"Started sub-agent task {task.record.id} in child session "
                              f"{task.child_session_id}. Follow it with task_output, collect its answer "
                              "with task_result, stop it with task_cancel.")
        try:
            record = await self._agents.wait(task.record.id)
        except asyncio.CancelledError:
            await asyncio.shield(self._agents.cancel(ctx.session_id, task.record.id))
            raise
        return _answer(await self._agents.consume(ctx.session_id, record.id), task)

    async def _spawn(self, args: dict[str, Any], ctx: ToolContext) -> ChildTask:
        prompt = arg_str(args, "task")
        max_turns = arg_int(args, "max_turns", default=DEFAULT_MAX_TURNS, low=1, high=MAX_TURNS)
        call = await self._claim(ctx, args)
        parent = await self._agents.store.read(get_session, ctx.session_id)
        name = str(args.get("agent") or "")
        defined = await self._definition(parent, name)
        agent = defined.to_vp() if defined else await _agent(self._agents, name, call.speaker)
        if defined and defined.max_turns and "max_turns" not in args:
            max_turns = min(defined.max_turns, MAX_TURNS)
        names = [n for n in self._agents.tool_names(parent, agent) if n != SPAWN_AGENT]
        snapshot = replace(agent, tools=tuple(names) or ("(none)",), max_steps=max_turns)
        return await self._agents.spawn(parent, call.call_id, call.seq, snapshot, prompt, _title(args))

    async def _definition(self, parent: Session, name: str) -> AgentDefinition | None:
        """An agent file of the parent's project named ``name`` (library VPs come first)."""
        if not name or self._definitions is None:
            return None
        if any(name.strip().lstrip("@").casefold() in (v.name.casefold(), v.id.casefold())
               for v in await all_vps(self._agents.store)):
            return None
        return (await self._definitions(parent)).agent(name)

    async def _claim(self, ctx: ToolContext, args: dict[str, Any]) -> RunningCall:
        """The running call that started this sub-agent (by call id; by arguments if unknown)."""
        for call in await self._agents.store.read(running_calls, ctx.session_id, SPAWN_AGENT):
            mine = call.call_id == ctx.call_id if ctx.call_id else call.arguments == args
            if mine and call.call_id not in self._claimed:
                self._claimed.add(call.call_id)
                return call
        raise ToolError("the call that started this sub-agent is not recorded as running")


async def _agent(agents: ChildAgents, name: str, caller: str) -> VP:
    vps = await all_vps(agents.store)
    if name:
        for vp in vps:
            if name.casefold() in (vp.name.casefold(), vp.id.casefold()):
                return vp
        raise ToolError(f"no persona named {name!r}; known: {', '.join(v.name for v in vps)}")
    return next((vp for vp in vps if vp.id == caller), OMNI)


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
