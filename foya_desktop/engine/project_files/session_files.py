"""The project files of one session: its project's root down to its workdir, plus user level."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path

from foya_desktop.core.errors import NotFound
from foya_desktop.core.model import Session
from foya_desktop.engine.project_files.agent_files import load_agents
from foya_desktop.engine.project_files.cache import TextCache
from foya_desktop.engine.project_files.catalog import ProjectContext
from foya_desktop.engine.project_files.locations import locations
from foya_desktop.engine.project_files.problems import mcp_problem
from foya_desktop.engine.project_files.rules import Rules, load_rules
from foya_desktop.engine.project_files.skill_tool import SkillTool
from foya_desktop.engine.project_files.skills import load_skills
from foya_desktop.engine.services import Services
from foya_desktop.store.catalog import get_project
from foya_desktop.store.sessions import get_session
from foya_desktop.store.store import Store
from foya_desktop.tools.base import Tool
from foya_desktop.tools.mcp.config import configured_servers


async def session_files(svc: Services, session: Session) -> ProjectContext:
    """What the next request of ``session`` will use (re-read only what changed)."""
    return await svc.project_files.load(svc.store.home.root, await _root(svc.store, session),
                                        session.workdir, set(svc.tools.all_names()))


async def rules_in_effect(store: Store, session: Session) -> Rules:
    """The rules the session's next request will carry, and every project file confinement refused
    (for status displays; store only, no kernel)."""
    root = await _root(store, session)
    mcp_dir = Path(session.workdir) if session.project_id and session.workdir else None
    return await asyncio.to_thread(rules_and_refusals, store.home.root, root, session.workdir, mcp_dir)


def rules_and_refusals(data_dir: Path, root: str, workdir: str, mcp_dir: Path | None) -> Rules:
    """The rules of a session (as :func:`load_rules`) with ``other_refusals``: the skill, agent and
    MCP configuration files that confinement refused. Those never reach a request either, and the
    person looks at the rules in effect to see what a session carries (blocking I/O)."""
    where = locations(data_dir, root, workdir)
    cache = TextCache()
    rules = load_rules(where, cache)
    others = [p for p in (*load_skills(where, cache)[1], *load_agents(where, cache, set())[1]) if p.refused]
    others += [p for p in map(mcp_problem, configured_servers(data_dir, mcp_dir).problems) if p.refused]
    return replace(rules, other_refusals=tuple(others))


async def _root(store: Store, session: Session) -> str:
    if not session.project_id:
        return ""
    try:
        return (await store.read(get_project, session.project_id)).path
    except NotFound:
        return ""


def skill_tools(svc: Services) -> dict[str, Tool]:
    """The ``skill`` tool bound to this engine's sessions."""
    async def locate(session_id: str) -> ProjectContext:
        return await session_files(svc, await svc.store.read(get_session, session_id))
    tool: Tool = SkillTool(locate)
    return {tool.name: tool}
