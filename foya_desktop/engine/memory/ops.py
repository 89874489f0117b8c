"""Memory operations of the kernel (the person's side: window and CLI).

``kernel.memory``, one of the kernel's area façades (like ``projects.py``).
Who may write where is checked here for the person and in
``engine.memory.tool`` for VPs; the storage is ``store.memory``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from foya_desktop.core.errors import InvalidOperation
from foya_desktop.core.events import MemoryChanged
from foya_desktop.core.memory import PERSON, MemoryEntry, MemoryScope
from foya_desktop.core.model import Project
from foya_desktop.engine.agents.vps import all_vps
from foya_desktop.store import memory as rows
from foya_desktop.store.catalog import update_project
from foya_desktop.store.sessions import get_session

if TYPE_CHECKING:
    from foya_desktop.engine.services import Services

MAX_ENTRY_CHARS = 2_000
"""One entry's longest text: memory holds facts and preferences, not documents."""


def parse_scope(value: str) -> MemoryScope:
    """A scope from its name, or a sentence listing the valid ones."""
    try:
        return MemoryScope(value.strip().lower())
    except ValueError:
        names = ", ".join(s.value for s in MemoryScope)
        raise InvalidOperation(f"Unknown memory scope {value!r}; use one of: {names}.") from None


def clean_text(text: str) -> str:
    """The entry text trimmed, refused when empty or too long."""
    text = text.strip()
    if not text:
        raise InvalidOperation("A memory entry needs some text.")
    if len(text) > MAX_ENTRY_CHARS:
        raise InvalidOperation(f"A memory entry holds at most {MAX_ENTRY_CHARS} characters "
                               f"(this one has {len(text)}).")
    return text


def changed(session_id: str, entry: MemoryEntry, change: str, by: str = "") -> MemoryChanged:
    """The event for a change of ``entry`` (``by``: who made it; the entry's author by default)."""
    return MemoryChanged(session_id, entry.id, change, str(entry.scope), by or entry.author, entry.text,
                         entry.vp_id)


def reach(entry: MemoryEntry, vp_name: str = "") -> str:
    """Where an entry applies, in words (``foya run``'s notice and ``foya memory add``)."""
    who = vp_name or entry.vp_id
    return {MemoryScope.USER: "every VP, in every session of every project",
            MemoryScope.VP: f"{who}, in every session of every project",
            MemoryScope.SESSION_VP: f"{who}, in session {entry.session_id} only",
            MemoryScope.SESSION: f"every VP of session {entry.session_id} only"}[entry.scope]


FAR_REACHING = (str(MemoryScope.USER), str(MemoryScope.VP))
"""Scopes whose entries reach other projects: a save there is announced wherever it happens."""


def memory_notice(event: MemoryChanged, names: Mapping[str, str]) -> str:
    """``foya run``'s line for a save: what, where it applies, and how to take it back
    (``names``: VP id → name)."""
    entry = MemoryEntry(event.entry_id, MemoryScope(event.scope), event.text, vp_id=event.vp_id)
    who = "You" if event.author == PERSON else names.get(event.author, event.author)
    return (f"\n[memory] {who} saved {event.entry_id} to {event.scope} memory, which applies to "
            f"{reach(entry, names.get(event.vp_id, event.vp_id))}: “{event.text}”. "
            f"Undo: foya memory remove {event.entry_id}")


class Memory:
    """Memory entries as the person sees and edits them."""

    def __init__(self, svc: Services) -> None:
        self.svc = svc

    async def _vp_id(self, ref: str) -> str:
        folded = ref.strip().casefold()
        for vp in await all_vps(self.svc.store):
            if folded in (vp.id.casefold(), vp.name.casefold()):
                return vp.id
        raise InvalidOperation(f"Unknown VP {ref!r} (see `foya vps list`).")

    async def _owner(self, scope: MemoryScope, vp: str | None,
                     session_id: str | None) -> tuple[str, str | None]:
        """(vp id, session id) a scope needs, checked; clear sentences for what is missing."""
        vp_id = ""
        if scope.needs_vp:
            if not vp:
                raise InvalidOperation(f"The {scope} scope belongs to one VP: name it (--vp NAME).")
            vp_id = await self._vp_id(vp)
        if scope.needs_session:
            if not session_id:
                raise InvalidOperation(f"The {scope} scope belongs to one session: name it (--session ID).")
            await self.svc.store.read(get_session, session_id)
        return vp_id, session_id if scope.needs_session else None

    async def list_memory(self, scope: MemoryScope | None = None, *, vp: str | None = None,
                          session_id: str | None = None) -> list[MemoryEntry]:
        """Entries, oldest first, narrowed by scope, VP (name or id) and owning session."""
        vp_id = await self._vp_id(vp) if vp else None
        if session_id:
            await self.svc.store.read(get_session, session_id)
        return await self.svc.store.read(lambda: rows.list_memory(scope, vp_id=vp_id, session_id=session_id))

    async def memory_view(self, session_id: str, vp: str) -> list[MemoryEntry]:
        """What ``vp`` sees in ``session_id``: user + its VP + its session-VP + the session scope."""
        await self.svc.store.read(get_session, session_id)
        return await self.svc.store.read(rows.view_of, await self._vp_id(vp), session_id)

    async def add_memory(self, scope: MemoryScope, text: str, *, vp: str | None = None,
                         session_id: str | None = None) -> MemoryEntry:
        """The person saves an entry (any scope; the VP and session the scope needs must be named)."""
        vp_id, owner = await self._owner(scope, vp, session_id)
        body = clean_text(text)
        entry = await self.svc.store.write(lambda: rows.add_memory(
            scope, body, vp_id=vp_id, session_id=owner, author=PERSON, source_session_id=session_id or ""))
        self.svc.bus.publish(changed(session_id or "", entry, "saved", PERSON))
        return entry

    async def edit_memory(self, entry_id: str, text: str) -> MemoryEntry:
        """The person rewrites an entry."""
        body = clean_text(text)
        entry = await self.svc.store.write(rows.edit_memory, entry_id, body)
        self.svc.bus.publish(changed(entry.session_id or entry.source_session_id, entry, "edited", PERSON))
        return entry

    async def remove_memory(self, entry_id: str) -> MemoryEntry:
        """The person removes an entry (also the timeline's undo of a VP's save)."""
        entry = await self.svc.store.write(rows.remove_memory, entry_id)
        self.svc.bus.publish(changed(entry.session_id or entry.source_session_id, entry, "removed", PERSON))
        return entry

    async def memory_exists(self, entry_id: str) -> bool:
        """Whether an entry is still stored (the timeline's undo shows only while it is)."""
        return bool(await self.svc.store.read(rows.exists, entry_id))

    async def set_project_scoped_recall(self, project_id: str, enabled: bool) -> Project:
        """Scoped recall for a project: member sessions get read-only summaries of their siblings."""
        return await self.svc.store.write(lambda: update_project(project_id, scoped_recall=bool(enabled)))
