"""History rewind in two phases: preview, then confirm.

Preview checks that the target is a valid plain-text user message, finds the
file changes made after it, and returns the history-head seq, a file-state
token and what will happen to each file. Confirm re-checks both (anything
moved: refuse, ask for a new preview), writes a journal, restores the safe
files, then commits ``history_rewound`` and deletes the journal in one
transaction. The original events stay; the user text goes back to the composer.

Rewind needs an idle session: with a turn running, both phases refuse and
ask the person to stop it first (the running turn could change files and
history under the preview).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from foya_desktop.core.errors import FoyaError, InvalidOperation
from foya_desktop.core.events import HistoryRewound
from foya_desktop.core.ids import new_id
from foya_desktop.core.messages import Message
from foya_desktop.engine.ops.eligibility import rewind_block
from foya_desktop.engine.ops.rewind_files import (
    RewindPlan,
    UnsafeFile,
    affected_paths,
    apply_ops,
    current_state,
    make_plan,
    ops_from_json,
    ops_to_json,
)
from foya_desktop.engine.services import Services
from foya_desktop.engine.session.scheduler import Scheduler
from foya_desktop.store.artifacts import ArtifactFiles
from foya_desktop.store.ops_rewind import (
    Journal,
    RewindTarget,
    commit_rewind,
    drop_journal,
    rewind_target,
    write_journal,
)
from foya_desktop.store.sessions import descendants


class RewindStale(InvalidOperation):
    """History or files changed between preview and confirm."""


@dataclass(frozen=True, slots=True)
class RewindPreview:
    """What confirming would do; pass it back unchanged to ``rewind_confirm``."""

    session_id: str
    message_id: str
    from_seq: int
    head_seq: int
    token: str
    text: str
    """The user text that goes back into the composer."""
    messages_removed: int
    restore: tuple[str, ...]
    """Files written back to their earlier content."""
    remove: tuple[str, ...]
    """Files the removed turns created; they are deleted."""
    unsafe: tuple[UnsafeFile, ...]
    """Changed files that are shown but not touched."""


@dataclass(frozen=True, slots=True)
class RewindResult:
    """What the rewind did. ``text`` is for the composer."""

    session_id: str
    message_id: str
    text: str
    restored: tuple[str, ...]
    removed: tuple[str, ...]
    skipped: tuple[str, ...]
    invalidated_checkpoints: tuple[str, ...]


async def preview(svc: Services, scheduler: Scheduler, session_id: str, message_id: str) -> RewindPreview:
    """Phase one: nothing changes."""
    await _refuse_busy(svc, scheduler, session_id)
    target, plan = await _survey(svc, session_id, message_id)
    return RewindPreview(
        session_id, message_id, target.message.seq, target.head_seq, plan.token, target.message.text,
        target.messages_removed, tuple(o.path for o in plan.ops if o.target is not None),
        tuple(o.path for o in plan.ops if o.target is None), plan.unsafe)


async def confirm(svc: Services, scheduler: Scheduler, session_id: str, shown: RewindPreview) -> RewindResult:
    """Phase two: re-check, journal, restore, commit. Raises ``RewindStale`` if anything moved."""
    await _refuse_busy(svc, scheduler, session_id)
    async with scheduler.owner(session_id).hold("rewind"):
        target, plan = await _survey(svc, session_id, shown.message_id)
        if (target.head_seq, plan.token, target.message.seq) != (shown.head_seq, shown.token, shown.from_seq):
            raise RewindStale("The session or its files changed since the preview. Preview the rewind "
                              "again before confirming.")
        journal = Journal(new_id("rwd"), session_id, shown.message_id, shown.from_seq, shown.head_seq,
                          target.workdir, ops_to_json(plan.ops))
        await svc.store.write(write_journal, journal)
        try:
            dropped = await asyncio.shield(svc.store.write(finish_rewind, svc.store.files, journal))
        except (OSError, FoyaError) as exc:
            await _undo(svc, journal, exc)
            raise InvalidOperation(f"The rewind could not restore the files ({exc}); nothing was "
                                   "changed.") from exc
    result = RewindResult(session_id, shown.message_id, target.message.text, shown.restore, shown.remove,
                          tuple(u.path for u in plan.unsafe), tuple(dropped))
    svc.bus.publish(HistoryRewound(session_id, result.message_id, shown.from_seq, result.text,
                                   result.restored, result.removed, result.skipped,
                                   result.invalidated_checkpoints))
    return result


def finish_rewind(blobs: ArtifactFiles, journal: Journal) -> list[str]:
    """Restore the journal's files, then commit (run inside one write transaction; idempotent).

    Start-up recovery calls this for journals left by a crash (roll forward).
    """
    apply_ops(journal.workdir, ops_from_json(journal.plan), blobs)
    return commit_rewind(journal)


def _undo_rewind(blobs: ArtifactFiles, journal: Journal) -> None:
    apply_ops(journal.workdir, ops_from_json(journal.plan), blobs, undo=True)
    drop_journal(journal.id)


async def _undo(svc: Services, journal: Journal, exc: BaseException) -> None:
    """A file could not be restored: put back the ones already done and forget the journal."""
    try:
        await svc.store.write(_undo_rewind, svc.store.files, journal)
    except (OSError, FoyaError) as again:
        raise InvalidOperation(f"The rewind failed ({exc}) and could not be undone ({again}); it "
                               "will be completed when Foya next starts.") from again


async def _survey(svc: Services, session_id: str, message_id: str) -> tuple[RewindTarget, RewindPlan]:
    target = await svc.store.read(rewind_target, session_id, message_id)
    _check_movable(target.message)
    return target, await asyncio.to_thread(_plan_now, target)


def _plan_now(target: RewindTarget) -> RewindPlan:
    states = {p: current_state(target.workdir, p) for p in affected_paths(target.changes)}
    return make_plan(target.changes, states)


def _check_movable(message: Message) -> None:
    block = rewind_block(message)
    if block == "images":
        raise InvalidOperation("This message has attachments (images). Only plain-text messages can "
                               "go back to the composer, so the history cannot be rewound to it.",
                               code=f"rewind_{block}", message_id=message.id)
    if block == "not_movable_meta":
        raise InvalidOperation("This message carries browser elements or a command id; only plain-text "
                               "messages can go back to the composer, so it cannot be rewound to.",
                               code=f"rewind_{block}", message_id=message.id)


async def _refuse_busy(svc: Services, scheduler: Scheduler, session_id: str) -> None:
    """A running turn — or a running sub-agent of this session — could change files under us."""
    if scheduler.busy(session_id):
        raise InvalidOperation("The session is busy. Stop the running turn first, then rewind.")
    await svc.store.owner_elsewhere(session_id)
    for child in await svc.store.read(descendants, session_id):
        if scheduler.busy(child):
            raise InvalidOperation("A sub-agent of this session is still running. Stop it first, "
                                   "then rewind.")
