"""Which personas a VP may start as sub-agents, and with which tools (docs/window/sessions.md "Sub-agents").

A sub-agent is never a way around the caller's limits:

* **Who.** The caller may start a VP on the session's roster (itself by default) or an
  agent file the person has seen. An agent file of the person's own (the data folder's
  ``agents/``) is theirs. A repository agent file (``.claude/agents``, ``.foya/agents``)
  arrives with the repository, written by whoever wrote the repository; it counts as
  seen once the person added it to the VP library (*From agent file…*, ``foya vps
  add-agent``), which shows them its soul and tools. It then runs as that library copy —
  what the person saw and perhaps edited — never as the file's current text, which may
  have changed since. VPs of the library that are not on the roster are not offered: the
  roster is the person's choice of who works in this session.
* **With what.** The child gets the tools both the persona and the caller are offered in
  the session (the intersection; what was left out is told to the caller). An agent file
  that names tools the caller may not use is refused with the names instead of being
  quietly cut down: its instructions were written for tools it would not have.
* **Under which modes.** The child starts with the parent's approval and agent modes and
  is held to the parent's while it runs (``store.ops_children.session_in_effect``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from foya_desktop.core.errors import ToolError
from foya_desktop.core.model import VP
from foya_desktop.engine.project_files.agent_files import AgentDefinition

SPAWN_AGENT = "spawn_agent"
NEVER_INHERITED = {SPAWN_AGENT, "memory", "route_forward"}
"""Never a child's: no sub-agents of sub-agents, memory belongs to the person's collaboration,
and a child has no other VP to hand work to."""


@dataclass(frozen=True, slots=True)
class SpawnChoice:
    """The persona a spawn request names, and the agent file it comes from (if any)."""

    persona: VP
    agent_file: AgentDefinition | None = None


def _named(name: str, vp: VP) -> bool:
    return name.casefold() in (vp.name.casefold(), vp.id.casefold())


def _library_copy(agent: AgentDefinition, library: Iterable[VP]) -> VP | None:
    """The VP the person made of a repository agent file (same name), if they added it."""
    return next((vp for vp in library if vp.name.casefold() == agent.name.casefold()), None)


def spawnable_files(agents: Sequence[AgentDefinition], library: Iterable[VP]) -> tuple[AgentDefinition, ...]:
    """The agent files a VP may start: the person's own, and repository ones they added to the library."""
    vps = list(library)
    return tuple(a for a in agents if a.scope == "user" or _library_copy(a, vps) is not None)


def choose(name: str, caller: VP, roster: Sequence[VP], library: Sequence[VP],
           agents: Sequence[AgentDefinition]) -> SpawnChoice:
    """The persona ``name`` stands for, or ``ToolError`` saying why it may not be started."""
    name = name.strip().lstrip("@")
    if not name:
        return SpawnChoice(caller)
    on_roster = next((vp for vp in roster if _named(name, vp)), None)
    if on_roster is not None:
        return SpawnChoice(on_roster)
    agent = next((a for a in agents if a.name.casefold() == name.casefold()), None)
    if agent is not None and agent.scope == "user":
        return SpawnChoice(agent.to_vp(), agent)
    if agent is not None:
        copy = _library_copy(agent, library)
        if copy is None:
            raise ToolError(
                f"{agent.name} is an agent file of this repository ({agent.path}) that the person has "
                f"not added to the VP library, so it cannot be started. {_offer(roster, agents, library)} "
                "Ask the person to review the file and add it (File ▸ VPs… ▸ From agent file…, or "
                f"`foya vps add-agent {agent.name} --from <project folder>`) if they want it.")
        return SpawnChoice(copy, agent)
    if any(_named(name, vp) for vp in library):
        raise ToolError(f"{name} is not on this session's roster, so it cannot be started here. "
                        f"{_offer(roster, agents, library)}")
    raise ToolError(f"There is no persona or agent file named {name!r} here. "
                    f"{_offer(roster, agents, library)}")


def _offer(roster: Sequence[VP], agents: Sequence[AgentDefinition], library: Sequence[VP]) -> str:
    names = [vp.name for vp in roster] + [a.name for a in spawnable_files(agents, library)]
    return f"You may start: {', '.join(dict.fromkeys(names))}."


def child_tools(choice: SpawnChoice, caller: VP, caller_tools: Sequence[str],
                persona_tools: Sequence[str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(the child's tools, the persona's tools left out because the caller lacks them).

    ``caller_tools`` and ``persona_tools`` are what each is offered in the parent session now.
    """
    mine = set(caller_tools)
    if choice.agent_file is not None:
        asked = [t for t in choice.persona.tools if t != "(none)" and t not in NEVER_INHERITED]
        missing = [t for t in asked if t not in mine]
        if missing:
            raise ToolError(
                f"The agent file {choice.agent_file.name} asks for {', '.join(missing)}, which "
                f"{caller.name} may not use here; a sub-agent never gets tools its caller does not have, "
                "so it was not started. Do the work with your own tools, or ask the person.")
    wanted = [t for t in persona_tools if t not in NEVER_INHERITED]
    return tuple(t for t in wanted if t in mine), tuple(t for t in wanted if t not in mine)
