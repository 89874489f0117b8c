"""The project files of one session: its project's root down to its workdir, plus user level."""

from __future__ import annotations

import asyncio

from foya_desktop.core.errors import NotFound
from foya_desktop.core.model import Session
from foya_desktop.engine.project_files.cache import TextCache
from foya_desktop.engine.project_files.catalog import ProjectContext
from foya_desktop.engine.project_files.locations import locations
from foya_desktop.engine.project_files.rules import Rules, load_rules
from foya_desktop.engine.project_files.skill_tool import SkillTool
from foya_desktop.engine.services import Services
from foya_desktop.store.catalog import get_project
from foya_desktop.store.sessions import get_session
from foya_desktop.store.store import Store
from foya_desktop.tools.base import Tool


async def session_files(svc: Services, session: Session) -> ProjectContext:
    """What the next request of ``session`` will use (re-read only what changed)."""
    return await svc.project_files.load(svc.store.home.root, await _root(svc.store, session),
                                        session.workdir, set(svc.tools.all_names()))


async def rules_in_effect(store: Store, session: Session) -> Rules:
    """The rules the session's next request will carry (for status displays; store only, no kernel)."""
    root = await _root(store, session)
    where = locations(store.home.root, root, session.workdir)
    return await asyncio.to_thread(load_rules, where, TextCache())


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
