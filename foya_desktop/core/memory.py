"""Memory entries and their scopes (Yeaft "Memory 边界"; SEED-CHECKLIST Y60).

Memory is kept per scope, never one global pool:

* ``user`` — the person's lasting preferences, seen by every VP in every session;
* ``vp`` — one VP's knowledge, seen by that VP in every session;
* ``session-vp`` — one VP's knowledge inside one session;
* ``session`` — the shared facts of one collaboration, seen by every VP of that session.

The two session scopes belong to their session: deleting it deletes them, and
branch, fork and merge never copy them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum


class MemoryScope(StrEnum):
    """Where an entry lives (see the module docstring)."""

    USER = "user"
    VP = "vp"
    SESSION_VP = "session-vp"
    SESSION = "session"

    @property
    def needs_vp(self) -> bool:
        """The scope belongs to one VP."""
        return self in (MemoryScope.VP, MemoryScope.SESSION_VP)

    @property
    def needs_session(self) -> bool:
        """The scope belongs to one session (deleted with it, never copied)."""
        return self in (MemoryScope.SESSION, MemoryScope.SESSION_VP)


PERSON = "person"
"""``MemoryEntry.author`` of entries the person wrote (window or CLI)."""


@dataclass(frozen=True, slots=True)
class MemoryEntry:
    """One remembered fact, with who wrote it and where."""

    id: str
    scope: MemoryScope
    text: str
    vp_id: str = ""
    """The VP whose scope it is (``vp``, ``session-vp``)."""
    session_id: str | None = None
    """The session whose scope it is (``session``, ``session-vp``)."""
    author: str = PERSON
    """The VP id that saved it, or ``person``."""
    source_session_id: str = ""
    """The session it was written in ("" when written outside any session)."""
    created_at: int = 0
    updated_at: int = 0


MEMORY_TOOL = "memory"
"""The VPs' memory tool (``engine.memory.tool``); the timeline draws its saves with an undo."""

_SAVED = re.compile(r"^Saved (mem_[0-9A-Za-z]+) to (user|vp|session-vp|session) memory")
"""How a save's result starts (``engine.memory.tool`` writes it)."""


def saved_entry(result: str) -> tuple[str, str] | None:
    """(entry id, scope) of a successful ``memory`` save's result text, else ``None``."""
    found = _SAVED.match(result)
    return (found.group(1), found.group(2)) if found else None
