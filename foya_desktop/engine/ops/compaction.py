"""Manual compaction ("compact now") of an idle session.

Summarises the valid messages after the last checkpoint (the newest part a summary
can carry, see ``summary_tail``) while the session
is held in phase ``compaction`` (its queue waits; ``kernel.turns.stop`` cancels
it). The summary and the checkpoint it writes are shared with automatic
compaction (``engine/request/build.py``, ``engine/request/summary.py``).
"""

from __future__ import annotations

from foya_desktop.core.errors import InvalidOperation
from foya_desktop.core.model import Phase, Session
from foya_desktop.core.records import Checkpoint
from foya_desktop.engine.agents.vps import roster_of
from foya_desktop.engine.request.summary import summarise, summary_tail, transcript_room, write_checkpoint
from foya_desktop.engine.services import Services
from foya_desktop.engine.session.scheduler import Scheduler
from foya_desktop.store.history import history_page
from foya_desktop.store.ops_checkpoints import latest_checkpoint
from foya_desktop.store.sessions import get_session


async def compact_now(svc: Services, scheduler: Scheduler, session_id: str) -> Checkpoint:
    """Manual compaction of an idle session; a stop (``kernel.turns.stop``) cancels it."""
    owner = scheduler.owner(session_id)
    owner.refuse_if_busy("compact it")  # decided now, not after the read below
    session = await svc.store.read(get_session, session_id)
    async with owner.hold("compact it", Phase.COMPACTION) as held:
        return await held.run(_manual(svc, session), stopped="Compaction was stopped; nothing was changed.")


async def _manual(svc: Services, session: Session) -> Checkpoint:
    roster = await roster_of(svc.store, session)
    vp = next((v for v in roster if v.id == session.default_vp), roster[0])
    current = await svc.store.read(latest_checkpoint, session.id)
    after = current.covers_seq if current else 0
    newest = await svc.store.read(history_page, session.id, limit=1)
    if not newest or newest[-1].seq <= after:
        raise InvalidOperation("Nothing new to compact since the last checkpoint.")
    # Only the newest part a summary can carry is read (``summary_tail``), not the whole history.
    room = transcript_room((await svc.providers.connection_for(session)).context_window)
    messages = await summary_tail(svc, session.id, after, newest[-1].seq + 1,
                                  {v.id: v.name for v in roster}, room)
    summary = await summarise(svc, session, vp, roster, current, messages)
    return await write_checkpoint(svc, session.id, newest[-1].seq, summary, automatic=False)
