"""The cross-process half of "one turn and one operation per session".

In-process, a session is busy while its runtime holds a task; across
processes, the session is *claimed* in the database by this process's lease
(``store.leases``). Every place that makes a session busy calls
:func:`claim` first and :func:`release_if_idle` when it is done, so a
second process (the window, another ``foya``) is refused with a sentence
naming who holds the session instead of interleaving with it.

A claim that finds the session left mid-turn by a dead process repairs
that one session in the same transaction before anything runs in it
(dangling tool calls, phase, lost tasks; an interrupted rewind is finished
at the next start).
"""

from __future__ import annotations

import asyncio
import logging

from foya_desktop.engine.session.runtime import SessionRuntime
from foya_desktop.store.store import Store

log = logging.getLogger(__name__)


async def claim(store: Store, session_id: str, what: str) -> None:
    """Claim the session for this process; raises ``SessionBusyElsewhere`` when another has it."""
    from foya_desktop.engine.ops.recovery import repair_session
    if await store.claim(session_id, what, lambda sid: repair_session(store, sid)):
        log.info("repaired session %s, left mid-turn by a process that died", session_id)


async def release_if_idle(store: Store, rt: SessionRuntime) -> None:
    """Give the session back to other processes unless something in this one still runs in it."""
    if not rt.busy:
        await asyncio.shield(store.release(rt.session_id))
