"""The scheduler: one :class:`SessionOwner` per session (its slot), and the idle condition.

It creates owners on first use, forgets them when a session is deleted, and
hands each owner the turn layer's ``start`` for the next queued message and
the kernel's ``repair`` for a session a dead process left mid-turn.
:meth:`Scheduler.wait_idle` is an awaitable condition, woken by every change
of any owner — nothing polls.
"""

from __future__ import annotations

import asyncio

from foya_desktop.engine.bus import EventBus
from foya_desktop.engine.session.owner import Repair, SessionOwner, Start
from foya_desktop.store.store import Store


class Scheduler:
    """Owns the session slots and wakes whoever waits for the engine to be idle."""

    def __init__(self, store: Store, bus: EventBus, start: Start, repair: Repair | None = None) -> None:
        self._store = store
        self._repair = repair
        self._bus = bus
        self._start = start
        self._owners: dict[str, SessionOwner] = {}
        self._change = asyncio.Event()

    def owner(self, session_id: str) -> SessionOwner:
        """The owner of a session (created on first use)."""
        found = self._owners.get(session_id)
        if found is None:
            found = SessionOwner(session_id, self._store, self._bus, self._start, self._change.set,
                                 self._repair)
            self._owners[session_id] = found
        return found

    def peek(self, session_id: str) -> SessionOwner | None:
        """The owner if the session has one in memory (``None``: never ran since start-up)."""
        return self._owners.get(session_id)

    def known(self, session_id: str) -> bool:
        """Whether the session has in-memory state."""
        return session_id in self._owners

    def busy(self, session_id: str) -> bool:
        """Whether something runs in the session right now."""
        found = self._owners.get(session_id)
        return found is not None and found.busy

    def owners(self) -> list[SessionOwner]:
        """Every owner, in creation order."""
        return list(self._owners.values())

    def forget(self, session_id: str) -> None:
        """Drop a deleted session's state (its queue goes silently)."""
        found = self._owners.pop(session_id, None)
        if found is not None:
            found.queue.clear(announce=False)
        self._change.set()

    async def wait_idle(self) -> None:
        """Return once nothing runs and no queue will move (a paused queue waits for the person)."""
        while not all(o.idle for o in self._owners.values()):
            self._change.clear()
            await self._change.wait()

    async def stop_all(self) -> None:
        """Stop every session (closing the kernel)."""
        for found in list(self._owners.values()):
            await found.stop()
