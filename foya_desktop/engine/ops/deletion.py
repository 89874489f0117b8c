"""Deleting a session: irreversible, descendants first, nothing left running.

Order (Foya seed): stop the active turn and wait for it to wind down; clear
the queue, approvals, questions and background commands; delete child
sessions before their parent; delete metadata, events, projection and the
blobs no other session references; publish ``SessionDeletedEvent`` for each.
Every session of the tree is held busy from its stop until the delete
commits, so a message sent meanwhile is queued and dropped, never run.
"""

from __future__ import annotations

from contextlib import AsyncExitStack

from foya_desktop.core.events import SessionDeletedEvent
from foya_desktop.engine.services import Services
from foya_desktop.engine.session.scheduler import Scheduler
from foya_desktop.store.sessions import descendants, get_session


async def delete_tree(svc: Services, scheduler: Scheduler, session_id: str) -> list[str]:
    """Delete ``session_id`` and its descendants; returns the deleted ids (children first).

    The root is stopped first, so it cannot spawn a new child while its tree is
    being collected; the tree is re-read until every member is held.
    """
    await svc.store.read(get_session, session_id)
    await svc.store.owner_elsewhere(session_id)
    async with AsyncExitStack() as stack:
        held_ids: list[str] = []
        pending = [session_id]
        while pending:
            for sid in pending:
                await _quiesce(svc, scheduler, sid)
                await stack.enter_async_context(scheduler.owner(sid).hold("delete it", advance=False))
                held_ids.append(sid)
            pending = [d for d in await svc.store.read(descendants, session_id) if d not in held_ids]
        ids = [*await svc.store.read(descendants, session_id), session_id]
        await svc.store.delete_sessions(ids)
    for sid in ids:
        scheduler.forget(sid)
        svc.grants.pop(sid, None)
        svc.bus.publish(SessionDeletedEvent(sid))
    return ids


async def _quiesce(svc: Services, scheduler: Scheduler, session_id: str) -> None:
    """Stop the turn (waiting for it), then drop every piece of runtime state of the session."""
    owner = scheduler.owner(session_id)
    owner.queue.pause()
    await svc.tasks.cancel_session(session_id)
    svc.questions.cancel_session(session_id)
    await owner.stop()
    if len(owner.queue):
        owner.queue.clear()
    await svc.providers.forget_session(session_id)
