"""The project files of one session: its project's root down to its workdir, plus user level."""

from __future__ import annotations

from foya_desktop.core.errors import NotFound
from foya_desktop.core.model import Session
from foya_desktop.engine.project_files.catalog import ProjectContext
from foya_desktop.engine.project_files.skill_tool import SkillTool
from foya_desktop.engine.services import Services
from foya_desktop.tools.base import Tool


async def session_files(svc: Services, session: Session) -> ProjectContext:
    """What the next request of ``session`` will use (re-read only what changed)."""
    root = ""
    if session.project_id:
        try:
            root = (await svc.store.get_project(session.project_id)).path
        except NotFound:
            root = ""
    return await svc.project_files.load(svc.store.home.root, root, session.workdir,
                                        set(svc.tools.all_names()))


def skill_tools(svc: Services) -> dict[str, Tool]:
    """The ``skill`` tool bound to this engine's sessions."""
    async def locate(session_id: str) -> ProjectContext:
        return await session_files(svc, await svc.store.get_session(session_id))
    tool: Tool = SkillTool(locate)
    return {tool.name: tool}
