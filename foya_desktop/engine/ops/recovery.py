"""Recovery: what a crash may have left half-done is finished or closed, never re-run.

Runs on the store's writer thread at start-up (and for one session when a
claim finds its previous owner dead). It touches only sessions that no live
process holds (``store.leases``): another process's running turn is not a
crash. Each step computes that set inside its own write transaction, so a
session claimed meanwhile is never touched.

* rewinds with a journal are rolled forward (files and history both "after");
* tool calls left ``pending``/``running`` get an interrupted result, so the
  next request tells the model plainly (nothing is executed again);
* phases are reset to ``idle``; background/sub-agent task records whose
  process is gone are marked ``lost``;
* queues, approvals, questions and session grants lived in memory only:
  they are simply gone, and no pending approval is ever granted.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass

from foya_desktop.core.errors import FoyaError
from foya_desktop.engine.ops.rewind import finish_rewind
from foya_desktop.engine.ops.rewind_files import ops_from_json, remove_rewind_temps
from foya_desktop.engine.request.context import INTERRUPTED_RESULT
from foya_desktop.store import sessions, tasks
from foya_desktop.store.ops_recovery import interrupt_dangling_calls
from foya_desktop.store.ops_rewind import Journal, pending_journals
from foya_desktop.store.store import Store

log = logging.getLogger(__name__)

NOT_STARTED_RESULT = ("The app stopped before this tool call started, so it did not run. Call it again "
                      "if it is still needed.")


@dataclass(frozen=True, slots=True)
class RecoveryReport:
    """What recovery did (for the log and tests)."""

    rewinds_completed: int
    rewinds_failed: int
    calls_interrupted: int
    phases_reset: int = 0
    tasks_lost: int = 0


def recover(store: Store, only: set[str] | None = None) -> RecoveryReport:
    """Repair every session no live process holds (or just ``only``); blocking."""
    def mine(session_id: str) -> bool:
        return (only is None or session_id in only) and session_id not in store.claimed_elsewhere()

    done = failed = 0
    for journal in store.write_sync(lambda: [j for j in pending_journals() if mine(j.session_id)]):
        if _roll_forward(store, journal, mine):
            done += 1
        else:
            failed += 1
    calls = store.write_sync(lambda: interrupt_dangling_calls(
        INTERRUPTED_RESULT, NOT_STARTED_RESULT, exclude=store.claimed_elsewhere(), only=only))
    phases = store.write_sync(lambda: sessions.reset_phases(store.claimed_elsewhere(), only))
    lost = store.write_sync(lambda: tasks.mark_lost(store.live_lease_ids() | {"-"}))
    report = RecoveryReport(done, failed, calls, phases, lost)
    if done or failed or calls or phases or lost:
        log.info("recovery: %s", report)
    return report


def repair_session(store: Store, session_id: str) -> None:
    """One session's leftovers of a dead owner (runs inside the claiming write transaction)."""
    interrupt_dangling_calls(INTERRUPTED_RESULT, NOT_STARTED_RESULT, only={session_id})
    sessions.reset_phases(only={session_id})
    tasks.mark_lost(store.live_lease_ids() | {"-"})


def _roll_forward(store: Store, journal: Journal, mine: Callable[[str], bool]) -> bool:
    def job() -> None:
        if not mine(journal.session_id):
            return  # claimed by a live process since the list was read: it is not ours to finish
        finish_rewind(store.files, journal)
        remove_rewind_temps(journal.workdir, ops_from_json(journal.plan))
    try:
        store.write_sync(job)
    except (OSError, FoyaError):
        log.exception("could not finish the interrupted rewind %s of session %s; it is kept and "
                      "retried at the next start", journal.id, journal.session_id)
        return False
    return True
