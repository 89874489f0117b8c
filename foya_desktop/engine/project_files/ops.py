"""Kernel operations on project files: rules in effect, a folder's report, an agent file as a VP.

``kernel.files``, one of the kernel's area façades (like ``engine.projects``). The window and the
CLI both come here, so they show and refuse in the same words.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from foya_desktop.core.errors import InvalidOperation
from foya_desktop.core.model import VP
from foya_desktop.engine.project_files.agent_files import AgentDefinition, read_agent
from foya_desktop.engine.project_files.cache import TextCache
from foya_desktop.engine.project_files.catalog import ProjectContext
from foya_desktop.engine.project_files.frontmatter import FrontmatterError
from foya_desktop.engine.project_files.report import folder_report
from foya_desktop.engine.project_files.rules import Rules
from foya_desktop.engine.project_files.session_files import rules_in_effect, session_files
from foya_desktop.store.sessions import get_session
from foya_desktop.tools.confined_read import OWN

if TYPE_CHECKING:
    from foya_desktop.engine.agents.vp_library import VPLibrary
    from foya_desktop.engine.services import Services


class ProjectFiles:
    """What a session's or a folder's files provide (``kernel.files``)."""

    def __init__(self, svc: Services, vp_library: VPLibrary) -> None:
        self.svc = svc
        self.vp_library = vp_library

    async def rules_in_effect(self, session_id: str) -> Rules:
        """The rules files the session's next request carries (for "rules in effect")."""
        return await rules_in_effect(self.svc.store, await self.svc.store.read(get_session, session_id))

    async def project_files(self, session_id: str) -> ProjectContext:
        """Rules, skills and agent definitions of a session, and what failed to load."""
        return await session_files(self.svc, await self.svc.store.read(get_session, session_id))

    async def folder_report(self, folder: str) -> dict[str, Any]:
        """``foya projects info``: everything a folder offers, as plain data."""
        path = await asyncio.to_thread(lambda: Path(folder).expanduser().resolve())
        if not await asyncio.to_thread(path.is_dir):
            raise InvalidOperation(f"{folder} is not a folder.")
        return await asyncio.to_thread(folder_report, self.svc.store.home.root, path,
                                       set(self.svc.tools.all_names()))

    async def add_agent_vp(self, folder: str, name: str) -> VP:
        """Copy the agent definition ``name`` found for ``folder`` into the VP library (for rosters)."""
        path = await asyncio.to_thread(lambda: Path(folder).expanduser().resolve())
        ctx = await self.svc.project_files.load(self.svc.store.home.root, str(path), str(path),
                                                set(self.svc.tools.all_names()))
        agent = ctx.agent(name)
        if agent is None:
            known = ", ".join(a.name for a in ctx.agents) or "none"
            raise InvalidOperation(f"No agent definition named {name!r} in {path} (found: {known}). "
                                   "See `foya projects info`.")
        return await self._library_vp(agent)

    async def add_agent_file_vp(self, path: str) -> VP:
        """Copy the agent definition in the file ``path`` into the VP library (the window's button).

        The person picked the file, so it is read as theirs (``confined_read.OWN``: a regular file,
        no pseudo-file, within the size cap), wherever it lies."""
        file = await asyncio.to_thread(lambda: Path(path).expanduser().resolve())
        try:
            agent = await asyncio.to_thread(read_agent, file, "project", TextCache(),
                                            set(self.svc.tools.all_names()), OWN)
        except FrontmatterError as exc:
            raise InvalidOperation(f"{file} is not a usable agent file: {exc}.") from None
        except (OSError, UnicodeError) as exc:
            raise InvalidOperation(f"Cannot read {file}: {exc}.") from None
        return await self._library_vp(agent)

    async def _library_vp(self, agent: AgentDefinition) -> VP:
        vp = agent.to_vp()
        if vp.tools == ("(none)",):
            raise InvalidOperation(f"The agent file {agent.path} names only tools Foya does not have "
                                   f"({', '.join(agent.unknown_tools)}); fix its tools line first.")
        return await self.vp_library.add(replace(vp, id=""))
