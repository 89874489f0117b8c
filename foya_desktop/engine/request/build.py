"""The next model request of a VP, compacting older history first when it would not fit.

Automatic compaction runs inside a turn: when the next request would exceed
the policy's share of the context window, everything before the current turn
is summarised, so the turn itself stays verbatim. The session shows phase
``compaction`` meanwhile, set through its owner; parallel VPs of one turn
share a lock so they compact once, not twice.

A long history is read and compiled once per request, not twice around the
compaction (issue 14: the first message into a 50,000-message session froze the
window): SQLite first says how much text the history before the turn carries
at least (``text_chars_between``, no message decoded). When that alone is over
the limit, the history is compacted right away — reading only the newest part
a summary can carry (``summary_tail``) — and the request is compiled from the
new checkpoint; otherwise it is compiled, estimated, and compacted only if
needed.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace

from foya_desktop.core.errors import FoyaError
from foya_desktop.core.events import Notice
from foya_desktop.core.llm import LlmRequest
from foya_desktop.core.model import VP, Phase, Session
from foya_desktop.engine.request.context_window import compose, estimate_tokens, load_policy, reply_tokens
from foya_desktop.engine.request.summary import summarise, summary_tail, transcript_room, write_checkpoint
from foya_desktop.engine.services import Services
from foya_desktop.engine.session.owner import SessionOwner
from foya_desktop.store.context_reads import text_chars_between
from foya_desktop.store.ops_checkpoints import latest_checkpoint, turn_start_seq


async def build_request(svc: Services, session: Session, vp: VP, roster: list[VP], turn_id: str,
                        model: str, owner: SessionOwner, lock: asyncio.Lock) -> LlmRequest:
    """The next request for ``vp``; compacts older history first if it would not fit.

    The window is the one the server states (``connections.window``, learned at the connection's
    first use), and the reply may take what it leaves (:func:`reply_tokens`).
    """
    policy = await load_policy(svc.store)
    conn = await svc.providers.connection_for(session)
    conn = await svc.providers.windows.learn(session.id, conn, model)
    limit = policy.threshold * conn.context_window
    tried = await _surely_too_long(svc, session.id, turn_id, limit)
    if tried and await auto_compact(svc, session, vp, roster, turn_id, owner, lock):
        request = await compose(svc, session, vp, roster, turn_id, model, policy)
    else:
        request = await compose(svc, session, vp, roster, turn_id, model, policy)
        # (compaction that failed or found nothing leaves the request as it is)
        if not tried and await _estimate(request) > limit \
                and await auto_compact(svc, session, vp, roster, turn_id, owner, lock):
            request = await compose(svc, session, vp, roster, turn_id, model, policy)
    if conn.name in svc.providers.windows.tools_off:
        request = replace(request, tools=())
    return replace(request, max_tokens=reply_tokens(conn.context_window, await _estimate(request)))


async def _estimate(request: LlmRequest) -> int:
    return await asyncio.to_thread(estimate_tokens, request)  # proportional to the history


OVERFLOW_RETRIED = ("The conversation was longer than this model's context window of {window} tokens: Foya "
                    "{did} and sent the request again.")


async def fit_after_overflow(svc: Services, session: Session, vp: VP, roster: list[VP], turn_id: str,
                             owner: SessionOwner, lock: asyncio.Lock, window: int | None) -> bool:
    """After the server refused a request as longer than its window: learn the window it states,
    compact the history before this turn, and say so. Whether the request is worth sending once more
    (the history was compacted, or the window learned is smaller than the one assumed)."""
    conn = await svc.providers.connection_for(session)
    learned = await svc.providers.windows.store(conn, window)
    smaller = learned.context_window < conn.context_window
    compacted = await auto_compact(svc, session, vp, roster, turn_id, owner, lock)
    if not (compacted or smaller):
        return False
    did = "compacted the earlier history" if compacted else "now keeps within it"
    svc.bus.publish(Notice(session.id, "warning", OVERFLOW_RETRIED.format(
        window=f"{learned.context_window:,}", did=did), "context_overflow_retried",
        {"window": learned.context_window, "compacted": compacted}))
    return True


async def _surely_too_long(svc: Services, session_id: str, turn_id: str, limit: float) -> bool:
    """Whether the text before the current turn alone exceeds ``limit`` tokens (a lower bound of
    the compiled request, asked of SQLite without decoding a message)."""
    current = await svc.store.read(latest_checkpoint, session_id)
    start = await svc.store.read(turn_start_seq, session_id, turn_id)
    if start is None:
        return False
    chars = await svc.store.read(text_chars_between, session_id, current.covers_seq if current else 0, start)
    return chars // 4 > limit


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
        room = transcript_room((await svc.providers.connection_for(session)).context_window)
        older = await summary_tail(svc, session.id, after, start, {v.id: v.name for v in roster}, room)
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
