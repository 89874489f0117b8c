"""Sessions and their history: create, list, change settings, bind a project; read pages of history."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from foya_desktop.core.errors import InvalidOperation
from foya_desktop.core.events import SessionChanged
from foya_desktop.core.ids import new_id, now_ms
from foya_desktop.core.messages import Message
from foya_desktop.core.model import ApprovalMode, Phase, Session
from foya_desktop.engine.agents.vps import check_roster
from foya_desktop.engine.session.settings import validated
from foya_desktop.store.catalog import get_connection, get_project
from foya_desktop.store.history import history_page, message_count, valid_messages
from foya_desktop.store.leases import left_by_dead_owners
from foya_desktop.store.sessions import (
    bind_project,
    create_session,
    descendants,
    get_session,
    list_sessions,
    update_session,
)

if TYPE_CHECKING:
    from foya_desktop.engine.projects import Projects
    from foya_desktop.engine.services import Services


class Sessions:
    """Sessions as the window's sidebar and ``foya sessions`` see them."""

    def __init__(self, svc: Services, projects: Projects) -> None:
        self._svc = svc
        self._projects = projects

    async def create_session(self, *, title: str = "", workdir: str | None = None,
                             roster: Sequence[str] = (), default_vp: str | None = None,
                             connection: str = "", model: str = "",
                             approval_mode: ApprovalMode = ApprovalMode.ASK,
                             allow_broad: bool = False) -> Session:
        """Create a session, registering the workdir's project when a folder is given.

        A broad folder (``/``, the home folder, around the data folder) is refused
        unless ``allow_broad`` says the person confirmed it (see ``engine.broad``).
        """
        store = self._svc.store
        ids, chosen = await check_roster(store, tuple(roster), default_vp)
        project = await self._projects.project_for(workdir, allow_broad=allow_broad) if workdir else None
        if connection:
            await store.read(get_connection, connection)
        now = now_ms()
        session = await store.write(create_session, Session(
            id=new_id("ses"), title=title.strip() or "New session",
            project_id=project.id if project else None, connection=connection, model=model,
            approval_mode=ApprovalMode(approval_mode), workdir=project.path if project else "",
            roster=ids, default_vp=chosen, created_at=now, updated_at=now))
        self._svc.bus.publish(SessionChanged(session.id, session))
        return session

    async def list_sessions(self) -> list[Session]:
        """All sessions, pinned first, each with its true phase (:meth:`listed`)."""
        return (await self.listed())[0]

    async def listed(self) -> tuple[list[Session], set[str]]:
        """All sessions, pinned first, and the ids of those whose last turn was interrupted.

        The phase a session records is a running process's word; a process killed mid-turn
        leaves ``turn`` behind until a writing process recovers the session (docs/data.md, "Two
        processes, one database"), and a read-only view must not repeat it. A busy phase no live
        process holds is reported as what is true: idle, the last turn interrupted.
        """
        store = self._svc.store
        sessions = await store.read(list_sessions)
        busy = [s.id for s in sessions if s.phase != Phase.IDLE]
        left = await store.read(left_by_dead_owners, store.home.run, busy) if busy else set()
        return [replace(s, phase=Phase.IDLE) if s.id in left else s for s in sessions], left

    async def get_session(self, session_id: str) -> Session:
        """One session, with its true phase (see :meth:`listed`)."""
        store = self._svc.store
        session = await store.read(get_session, session_id)
        if session.phase == Phase.IDLE:
            return session
        left = await store.read(left_by_dead_owners, store.home.run, [session_id])
        return replace(session, phase=Phase.IDLE) if left else session

    async def update_session(self, session_id: str, **changes: Any) -> Session:
        """Change settings (validated, see ``engine.session.settings``); they apply from the next
        model request or tool call."""
        store = self._svc.store
        current = await store.read(get_session, session_id)
        changes = await validated(store, current, changes)
        session = await store.write(update_session, session_id, changes)
        self._svc.bus.publish(SessionChanged(session.id, session))
        return session

    async def bind_project(self, session_id: str, project_id: str, *, allow_broad: bool = False) -> Session:
        """Bind an unbound session once; bound sessions never move. A broad project folder
        needs ``allow_broad`` (the person's explicit confirmation)."""
        store = self._svc.store
        session = await store.read(get_session, session_id)
        if session.project_id is not None:
            raise InvalidOperation("This session is already bound to a project; a bound session "
                                   "cannot be moved. Fork it to continue elsewhere.")
        if session.parent_id is not None:
            raise InvalidOperation("A child session follows its parent's project.")
        project = await store.read(get_project, project_id)
        await self._projects.refuse_broad(project.path, allow_broad=allow_broad)
        session = await store.write(bind_project, session_id, project.id, project.path)
        self._svc.bus.publish(SessionChanged(session.id, session))
        return session

    async def descendants(self, session_id: str) -> list[str]:
        """Ids of the session's child sessions, deepest first."""
        return await self._svc.store.read(descendants, session_id)


class History:
    """A session's valid history and its attachments' bytes."""

    def __init__(self, svc: Services) -> None:
        self._svc = svc

    async def message_count(self, session_id: str) -> int:
        """Valid messages in a session."""
        return await self._svc.store.read(message_count, session_id)

    async def history_page(self, session_id: str, *, before_seq: int | None = None,
                           limit: int = 200) -> list[Message]:
        """A page of valid history, oldest first."""
        return await self._svc.store.read(history_page, session_id, before_seq, limit)

    async def messages(self, session_id: str) -> list[Message]:
        """The whole valid history, oldest first (``foya sessions show``)."""
        return await self._svc.store.read(valid_messages, session_id)

    async def read_artifact(self, sha: str) -> bytes:
        """An artifact's bytes."""
        return await self._svc.store.read(self._svc.store.files.get, sha)
