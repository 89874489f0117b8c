"""Search of the kernel: across sessions (the search window, ``foya search``) and within one (Ctrl+F).

Both read the store's FTS5 index (``store/search.py``) on the reader thread,
so a query never waits for a write and never runs on the GUI thread.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from foya_desktop.core.errors import InvalidOperation
from foya_desktop.store.outline import OutlineEntry, session_outline
from foya_desktop.store.search import SearchHit, SearchQuery, message_seq, search, session_matches

if TYPE_CHECKING:
    from foya_desktop.engine.services import Services


class Search:
    """Full-text search (``kernel.search``)."""

    def __init__(self, svc: Services) -> None:
        self.svc = svc

    async def find(self, text: str, *, project_id: str | None = None, session_id: str | None = None,
                     speaker: str | None = None, since_ms: int | None = None, until_ms: int | None = None,
                     limit: int = 50) -> list[SearchHit]:
        """Messages matching every word of ``text``, newest first, within the filters."""
        if not text.strip():
            raise InvalidOperation("Type something to search for.")
        query = SearchQuery(text, session_id=session_id, project_id=project_id, speaker=speaker or None,
                            since_ms=since_ms, until_ms=until_ms, limit=limit)
        return await self.svc.store.read(search, query)

    async def find_in_session(self, session_id: str, text: str, speaker: str | None = None) -> list[str]:
        """Ids of every matching message of one session, oldest first (all pages, not the window)."""
        if not text.strip() and not speaker:
            return []
        return await self.svc.store.read(session_matches, session_id, text, speaker or None)

    async def message_seq(self, message_id: str) -> int:
        """Where a message sits in its session (to open the timeline there)."""
        return await self.svc.store.read(message_seq, message_id)

    async def outline(self, session_id: str) -> list[OutlineEntry]:
        """The session's user turns and the VP blocks under them, oldest first (the outline list)."""
        return await self.svc.store.read(session_outline, session_id)
