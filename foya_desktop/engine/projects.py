"""Project operations of the kernel: rename, instruction, relink, delete, missing folders.

``kernel.projects``, one of the kernel's area façades (see ``engine/areas``).
The rules: a project is only a folder reference (F10); relinking moves the
reference, never files, and its sessions stay bound (F09); deleting removes
Foya's data about the project — its sessions, rules and the record — and
never the folder (F11).
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import TYPE_CHECKING

from foya_desktop.core.errors import InvalidOperation
from foya_desktop.core.events import SessionChanged
from foya_desktop.core.model import Project
from foya_desktop.engine.broad import refuse_broad
from foya_desktop.engine.ops import deletion
from foya_desktop.store.catalog import (
    ensure_project,
    get_project,
    list_projects,
    project_session_ids,
    update_project,
)
from foya_desktop.store.ops_projects import forget_project, relink_project, set_project_order
from foya_desktop.store.sessions import get_session
from foya_desktop.tools.paths import broad_project_kind

if TYPE_CHECKING:
    from foya_desktop.engine.services import Services
    from foya_desktop.engine.session.scheduler import Scheduler


def existing_folder(path: str) -> Path:
    """``path`` resolved, or ``InvalidOperation`` when it is not a folder."""
    folder = Path(path).expanduser()
    if not folder.is_dir():
        raise InvalidOperation(f"The folder {path} does not exist.")
    return folder.resolve()


class Projects:
    """Project management on top of the services and the session scheduler."""

    def __init__(self, svc: Services, scheduler: Scheduler) -> None:
        self.svc = svc
        self._scheduler = scheduler

    async def project_for(self, workdir: str, *, allow_broad: bool) -> Project:
        """The project of a folder, registered on first use (a broad folder needs ``allow_broad``)."""
        resolved = await asyncio.to_thread(existing_folder, workdir)
        await self.refuse_broad(str(resolved), allow_broad=allow_broad)
        return await self.svc.store.write(ensure_project, str(resolved), resolved.name or str(resolved))

    async def refuse_broad(self, folder: str, *, allow_broad: bool) -> None:
        """``InvalidOperation`` for a broad folder the person did not confirm (``engine.broad``)."""
        await asyncio.to_thread(refuse_broad, Path(folder), self.svc.store.home.root, allow_broad=allow_broad)

    async def list_projects(self) -> list[Project]:
        """Registered projects."""
        return await self.svc.store.read(list_projects)

    async def add_project(self, path: str, name: str = "", *, allow_broad: bool = False) -> Project:
        """Register a folder as a project (idempotent); ``name`` renames it. A broad folder
        needs ``allow_broad`` (the person's explicit confirmation)."""
        project = await self.project_for(path, allow_broad=allow_broad)
        if name.strip() and name.strip() != project.name:
            project = await self.rename_project(project.id, name)
        return project

    async def broad_folder(self, folder: str) -> str | None:
        """The kind of broad folder ``folder`` is (``root``, ``home``, ``contains_home``,
        ``contains_data``) or ``None``: the window asks for a confirmation before binding one."""
        data = self.svc.store.home.root
        return await asyncio.to_thread(lambda: broad_project_kind(Path(folder).expanduser(), data))

    async def rename_project(self, project_id: str, name: str) -> Project:
        """A new display name (the folder keeps its name)."""
        if not name.strip():
            raise InvalidOperation("A project needs a name.")
        return await self.svc.store.write(lambda: update_project(project_id, name=name.strip()))

    async def set_project_instruction(self, project_id: str, instruction: str) -> Project:
        """The one instruction every session of the project gets (from the next model step)."""
        return await self.svc.store.write(lambda: update_project(project_id, instruction=instruction.strip()))

    async def project_sessions(self, project_id: str) -> list[str]:
        """Top-level sessions bound to the project."""
        return await self.svc.store.read(project_session_ids, project_id)

    async def delete_project(self, project_id: str) -> list[str]:
        """Delete the project's sessions (children first), its rules and its record; never the folder.

        Returns the deleted session ids.
        """
        await self.svc.store.read(get_project, project_id)
        deleted: list[str] = []
        for session_id in await self.project_sessions(project_id):
            deleted += await deletion.delete_tree(self.svc, self._scheduler, session_id)
        await self.svc.store.write(forget_project, project_id)
        return deleted

    async def relink_project(self, project_id: str, path: str, *, allow_broad: bool = False) -> Project:
        """Point a project whose folder moved at its new place; its sessions follow, still bound.
        A broad folder needs ``allow_broad`` (see ``engine.broad``)."""
        folder = await asyncio.to_thread(existing_folder, path)
        await self.refuse_broad(str(folder), allow_broad=allow_broad)
        project, ids = await self.svc.store.write(relink_project, project_id, str(folder))
        for session_id in ids:
            session = await self.svc.store.read(get_session, session_id)
            self.svc.bus.publish(SessionChanged(session_id, session))
        return project

    async def missing_projects(self) -> list[str]:
        """Ids of projects whose folder is gone (moved or deleted); checked off the event loop."""
        projects = await self.svc.store.read(list_projects)
        return await asyncio.to_thread(lambda: [p.id for p in projects if not Path(p.path).is_dir()])

    async def reorder_projects(self, project_ids: list[str]) -> list[Project]:
        """The sidebar order of projects."""
        await self.svc.store.write(set_project_order, list(project_ids))
        return await self.svc.store.read(list_projects)
