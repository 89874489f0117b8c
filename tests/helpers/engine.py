"""Driving a real kernel (real SQLite, real HTTP to the fake provider) from tests."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field

from foya_desktop.core.events import Event, TurnFinished


@dataclass
class Recorder:
    """Collects every event published on a kernel's bus."""

    events: list[Event] = field(default_factory=list)

    def __call__(self, event: Event) -> None:
        self.events.append(event)

    def of(self, kind: type[Event]) -> list[Event]:
        """Events of one type, in order."""
        return [e for e in self.events if isinstance(e, kind)]


async def wait_for(predicate: Callable[[], bool], timeout: float = 10.0) -> None:
    """Poll until ``predicate()`` holds (the loop keeps running meanwhile)."""
    deadline = asyncio.get_running_loop().time() + timeout
    while not predicate():
        if asyncio.get_running_loop().time() > deadline:
            raise TimeoutError("condition not reached in time")
        await asyncio.sleep(0.01)


def turns_done(rec: Recorder, session_id: str) -> list[TurnFinished]:
    """Finished turns of one session, in order."""
    return [e for e in rec.events if isinstance(e, TurnFinished) and e.session_id == session_id]


async def wait_turns(rec: Recorder, session_id: str, count: int, timeout: float = 20.0) -> list[TurnFinished]:
    """Wait until ``count`` turns of the session have finished."""
    await wait_for(lambda: len(turns_done(rec, session_id)) >= count, timeout)
    return turns_done(rec, session_id)
