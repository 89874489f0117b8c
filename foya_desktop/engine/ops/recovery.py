"""Start-up recovery: what a crash may have left half-done is finished or closed, never re-run.

Runs on the store's writer thread before the kernel serves anyone:

* rewinds with a journal are rolled forward (files and history both "after");
* tool calls left ``pending``/``running`` get an interrupted result, so the
  next request tells the model plainly (nothing is executed again);
* phases are reset to ``idle`` and background/sub-agent task records marked
  ``lost`` by their owners (``Store.reset_phases``, ``TaskManager.recover``);
* queues, approvals, questions and session grants lived in memory only:
  they are simply gone, and no pending approval is ever granted.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from foya_desktop.core.errors import FoyaError
from foya_desktop.engine.ops.rewind import finish_rewind
from foya_desktop.engine.request.context import INTERRUPTED_RESULT
from foya_desktop.store.ops_recovery import interrupt_dangling_calls
from foya_desktop.store.ops_rewind import Journal, pending_journals
from foya_desktop.store.store import Store

log = logging.getLogger(__name__)

NOT_STARTED_RESULT = ("The app stopped before this tool call started, so it did not run. Call it again "
                      "if it is still needed.")


@dataclass(frozen=True, slots=True)
class RecoveryReport:
    """What start-up recovery did (for the log and tests)."""

    rewinds_completed: int
    rewinds_failed: int
    calls_interrupted: int


def recover(store: Store) -> RecoveryReport:
    """Finish interrupted rewinds, then close dangling tool calls (blocking; call at start-up)."""
    done = failed = 0
    for journal in store.write_sync(pending_journals):
        if _roll_forward(store, journal):
            done += 1
        else:
            failed += 1
    calls = store.write_sync(interrupt_dangling_calls, INTERRUPTED_RESULT, NOT_STARTED_RESULT)
    report = RecoveryReport(done, failed, calls)
    if done or failed or calls:
        log.info("start-up recovery: %s", report)
    return report


def _roll_forward(store: Store, journal: Journal) -> bool:
    try:
        store.write_sync(finish_rewind, store.files, journal)
    except (OSError, FoyaError):
        log.exception("could not finish the interrupted rewind %s of session %s; it is kept and "
                      "retried at the next start", journal.id, journal.session_id)
        return False
    return True
