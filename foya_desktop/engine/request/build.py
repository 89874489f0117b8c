"""The next model request of a VP, compacting older history first when it would not fit.

Automatic compaction runs inside a turn: when the next request would exceed
the policy's share of the context window, everything before the current turn
is summarised, so the turn itself stays verbatim. The session shows phase
``compaction`` meanwhile, set through its owner; parallel VPs of one turn
share a lock so they compact once, not twice.
"""

from __future__ import annotations

import asyncio

from foya_desktop.core.errors import FoyaError
from foya_desktop.core.events import Notice
from foya_desktop.core.llm import LlmRequest
from foya_desktop.core.model import VP, Phase, Session
from foya_desktop.engine.request.context_window import compose, estimate_tokens, load_policy
from foya_desktop.engine.request.summary import summarise, write_checkpoint
from foya_desktop.engine.services import Services
from foya_desktop.engine.session.owner import SessionOwner
from foya_desktop.store.history import valid_messages
from foya_desktop.store.ops_checkpoints import latest_checkpoint, turn_start_seq


async def build_request(svc: Services, session: Session, vp: VP, roster: list[VP], turn_id: str,
                        model: str, owner: SessionOwner, lock: asyncio.Lock) -> LlmRequest:
    """The next request for ``vp``; compacts older history first if it would not fit."""
    policy = await load_policy(svc.store)
    request = await compose(svc, session, vp, roster, turn_id, model, policy)
    conn = await svc.providers.connection_for(session)
    tokens = await asyncio.to_thread(estimate_tokens, request)  # proportional to the history
    if tokens > policy.threshold * conn.context_window and \
            await auto_compact(svc, session, vp, roster, turn_id, owner, lock):
        request = await compose(svc, session, vp, roster, turn_id, model, policy)
    return request


async def auto_compact(svc: Services, session: Session, vp: VP, roster: list[VP], turn_id: str,
                       owner: SessionOwner, lock: asyncio.Lock) -> bool:
    """Checkpoint everything before the current turn; ``True`` when a (new) checkpoint applies."""
    async with lock:
        current = await svc.store.read(latest_checkpoint, session.id)
        start = await svc.store.read(turn_start_seq, session.id, turn_id)
        if start is None:
            return False
        if current is not None and current.covers_seq >= start - 1:
            return True  # a sibling VP compacted while we waited for the lock
        after = current.covers_seq if current else 0
        older = [m for m in await svc.store.read(valid_messages, session.id, after) if m.seq < start]
        if not older:
            return False
        await owner.set_phase(Phase.COMPACTION)
        try:
            summary = await summarise(svc, session, vp, roster, current, older)
        except FoyaError as exc:
            svc.bus.publish(Notice(session.id, "warning", f"Automatic compaction failed: {exc}",
                                   "compaction_failed", {"error_code": exc.code, "error": str(exc)}))
            return False
        finally:
            await owner.set_phase(Phase.TURN)
        await write_checkpoint(svc, session.id, start - 1, summary, automatic=True)
        return True
