"""Holding a session busy while a lifecycle operation (rewind, compaction, deletion) runs.

While the gate is held the session's runtime reports ``busy``, so a message
sent meanwhile is queued (the normal rule) instead of starting a turn that
would race the operation. When the gate opens, the queue moves on as it
would after a turn — unless it was paused by a stop.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING

from foya_desktop.core.errors import InvalidOperation
from foya_desktop.core.events import PhaseChanged
from foya_desktop.core.model import Phase
from foya_desktop.engine.services import Services
from foya_desktop.engine.session.claims import claim, release_if_idle
from foya_desktop.engine.session.runtime import SessionRuntime

if TYPE_CHECKING:
    from foya_desktop.engine.turn.turns import TurnManager


_DOING = {"rewind": "being rewound", "delete it": "being deleted"}
"""What other processes are told this one is doing, by the ``what`` of :func:`held`."""


@asynccontextmanager
async def held(turns: TurnManager, session_id: str, what: str, *,
               dispatch_after: bool = True) -> AsyncIterator[SessionRuntime]:
    """Refuse if the session is busy ("stop it first"), else keep it busy until the block ends."""
    rt = turns.runtime(session_id)
    if rt.busy:
        raise InvalidOperation(f"The session is busy. Stop the running turn first, then {what}.")
    release = asyncio.Event()
    gate = asyncio.create_task(_wait(release), name=f"gate-{session_id}")
    rt.task = gate
    try:
        await claim(turns.svc.store, session_id, _DOING.get(what, "busy with an operation"))
    except BaseException:
        release.set()
        await asyncio.gather(gate, return_exceptions=True)
        if rt.task is gate:
            rt.task = None
        raise
    try:
        yield rt
    finally:
        release.set()
        await asyncio.gather(gate, return_exceptions=True)  # a stop may have cancelled it
        if rt.task is gate:  # a deletion may have taken the session over meanwhile
            rt.task = None
        if dispatch_after and not rt.paused:
            await turns.dispatch_next(rt)
        await release_if_idle(turns.svc.store, rt)


async def _wait(release: asyncio.Event) -> None:
    await release.wait()


async def set_phase(svc: Services, rt: SessionRuntime, phase: Phase) -> None:
    """Record and announce a kernel phase (the store write is shielded from cancellation)."""
    rt.phase = phase
    await asyncio.shield(svc.store.set_phase(rt.session_id, phase))
    svc.bus.publish(PhaseChanged(rt.session_id, str(phase)))
