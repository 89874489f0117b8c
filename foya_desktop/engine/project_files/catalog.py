"""One session's project files, gathered in one place and turned into one prompt section.

``ProjectFiles.load`` is called before every model request (``engine.request.context_window``)
and by ``foya projects info`` / ``foya sessions status``; the mtime cache keeps it to a few
``stat`` calls when nothing changed, so edits apply from the next request.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from pathlib import Path

from foya_desktop.engine.project_files.agent_files import AgentDefinition, load_agents
from foya_desktop.engine.project_files.cache import TextCache
from foya_desktop.engine.project_files.locations import Locations, locations
from foya_desktop.engine.project_files.problems import Problem
from foya_desktop.engine.project_files.rules import Rules, load_rules
from foya_desktop.engine.project_files.skills import Skill, load_skills

SKILL_TOOL = "skill"


@dataclass(frozen=True, slots=True)
class ProjectContext:
    """Rules, skills and agent definitions in effect for one session, and what failed."""

    where: Locations
    rules: Rules
    skills: tuple[Skill, ...] = ()
    agents: tuple[AgentDefinition, ...] = ()
    problems: tuple[Problem, ...] = field(default=())

    def skill(self, name: str) -> Skill | None:
        """A skill by name, case-insensitive."""
        return next((s for s in self.skills if s.name.casefold() == name.strip().casefold()), None)

    def agent(self, name: str) -> AgentDefinition | None:
        """An agent definition by name, case-insensitive (``@`` allowed)."""
        folded = name.strip().lstrip("@").casefold()
        return next((a for a in self.agents if a.name.casefold() == folded), None)


class ProjectFiles:
    """Reads project files for sessions (one cache for the whole engine)."""

    def __init__(self) -> None:
        self.cache = TextCache()

    def load_sync(self, data_dir: Path, root: str, workdir: str, known_tools: set[str]) -> ProjectContext:
        """Everything for a session bound to ``root`` working in ``workdir`` (blocking I/O)."""
        where = locations(data_dir, root, workdir)
        rules = load_rules(where, self.cache)
        skills, skill_problems = load_skills(where, self.cache)
        agents, agent_problems = load_agents(where, self.cache, known_tools)
        return ProjectContext(where, rules, tuple(skills), tuple(agents),
                              (*rules.problems, *skill_problems, *agent_problems))

    async def load(self, data_dir: Path, root: str, workdir: str, known_tools: set[str]) -> ProjectContext:
        """:meth:`load_sync` off the event loop."""
        return await asyncio.to_thread(self.load_sync, data_dir, root, workdir, known_tools)


def context_prompt(ctx: ProjectContext, *, subagent: bool = False) -> str:
    """The system-prompt section: rules, the skills list and the agent definitions."""
    parts: list[str] = []
    if ctx.rules.text:
        parts.append(ctx.rules.text)
    if ctx.skills:
        lines = [f"- {s.name}: {s.description}" for s in ctx.skills]
        parts.append(f"Skills (call the {SKILL_TOOL} tool with a skill's name to load its instructions "
                     "before you do the task it describes):\n" + "\n".join(lines))
    if ctx.agents and not subagent:
        lines = [f"- {a.name}: {a.description}" for a in ctx.agents]
        parts.append("Sub-agent definitions (start one with spawn_agent and agent=<name>):\n"
                     + "\n".join(lines))
    return "\n\n".join(parts)
