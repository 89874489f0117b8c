"""The Work Center's executor: each WorkItem is one DBOS Transact workflow.

The workflow (:func:`work_item_workflow`) loops over two durable steps — *advance* (decide
the next action, or a wait, and record the WorkItem's state) and *run* (run that action to
its end) — waits for the person with DBOS ``recv`` and before a failed VP run's next attempt
with DBOS ``sleep``. DBOS records every step's outcome
in its system database, so after a crash or ``kill -9`` the next executor's launch
recovers the workflow: completed steps are replayed from their records, and only the step
that was in flight runs again — which resumes its action's run (``center.run_action``:
recorded tool calls are not repeated).

Why the pieces are as they are:

- The system database is a SQLite file beside Foya's (``work.sqlite3`` in the data
  folder): nothing to install or start. DBOS 3.4 defines its SQLite tables' timestamps
  with ``unixepoch('subsec')``, which SQLite learned in 3.42; on an older library (Debian
  12 ships 3.40) every launch fails with "NOT NULL constraint failed:
  application_versions.version_timestamp" (``tests/work/test_dbos_sqlite.py`` shows it).
  So Foya hands DBOS its own engine, with DBOS's connection settings plus that one
  function where the library lacks it.
- Workflows and steps are synchronous: DBOS runs them on its own threads, and a step
  hands its coroutine to the event loop that owns the kernel (:func:`_call`), so turns,
  the store and the session owners stay on one loop.
- One executor per data folder at a time (a ``flock`` in ``run/``, dropped by the OS when
  the process ends in any way): DBOS recovers the pending workflows of executor
  ``local``, so two processes recovering the same WorkItem would run it twice at once.
  Other processes record the person's decisions in Foya's database and wake the
  workflow with ``DBOSClient.send``.
- ``application_version`` is fixed, not DBOS's hash of the workflow code, so an upgrade
  of Foya still recovers WorkItems that were in flight.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import logging
import os
import sqlite3
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from dbos import DBOS, DBOSClient, SetWorkflowID
from sqlalchemy import event

from foya_desktop.engine.work.center import WorkCenter
from foya_desktop.engine.work.errors import WorkBusyElsewhere
from foya_desktop.store.home import Home

log = logging.getLogger(__name__)

APP_VERSION = "foya-work-1"
PERSON = "person"
"""The topic the workflow waits on; any message only wakes it to look at the WorkItem again."""
WAIT_S = 24 * 3600
SETTLE_POLL_S = 0.2
LIVE = ["PENDING", "ENQUEUED"]
"""Workflow states that will still run: recovery re-enqueues a dead executor's workflows on
DBOS's internal queue (ENQUEUED), whose dequeue hands each to exactly one runner (PENDING)."""

_center: WorkCenter | None = None
_loop: asyncio.AbstractEventLoop | None = None


def system_database(home: Home) -> Path:
    """The DBOS system database of this data folder (beside ``foya.sqlite3``)."""
    return home.root / "work.sqlite3"


def _unixepoch(*args: object) -> float | int:
    """SQLite's ``unixepoch`` for libraries older than 3.42 (which lack ``'subsec'``)."""
    return round(time.time(), 3) if args and args[-1] == "subsec" else int(time.time())


def system_engine(home: Home) -> sa.Engine:
    """The SQLAlchemy engine DBOS uses: its own SQLite settings, plus ``unixepoch('subsec')``."""
    engine = sa.create_engine(f"sqlite:///{system_database(home)}")

    @event.listens_for(engine, "connect")
    def _connect(dbapi_conn: Any, _record: Any) -> None:
        dbapi_conn.isolation_level = "IMMEDIATE"
        dbapi_conn.execute("PRAGMA busy_timeout=30000")
        dbapi_conn.execute("PRAGMA foreign_keys=ON")
        if sqlite3.sqlite_version_info < (3, 42):
            dbapi_conn.create_function("unixepoch", -1, _unixepoch)

    return engine


def _call[R](work: Callable[[WorkCenter], Awaitable[R]]) -> R:
    """Run ``work`` on the kernel's loop from a DBOS thread and wait for its result."""
    center, loop = _center, _loop
    assert center is not None, "the executor is not open"
    assert loop is not None

    async def go() -> R:
        return await work(center)

    return asyncio.run_coroutine_threadsafe(go(), loop).result()


@DBOS.step()
def _advance(item_id: str) -> dict[str, str]:
    nxt = _call(lambda c: c.advance(item_id))
    return {"what": nxt.what, "action": nxt.action, "reason": nxt.reason}


@DBOS.step()
def _run(item_id: str, action_id: str) -> dict[str, Any]:
    """Run an action: ``retry_in`` seconds when its VP's turn failed and may be tried again."""
    try:
        return {"crashed": "", "retry_in": _call(lambda c: c.run_action(item_id, action_id))}
    except Exception as exc:  # recorded as the action's failure, never a workflow left hanging
        log.exception("WorkItem %s action %s crashed", item_id, action_id)
        return {"crashed": f"internal error ({type(exc).__name__}: {exc})", "retry_in": 0}


@DBOS.step()
def _fail(item_id: str, action_id: str, reason: str) -> None:
    _call(lambda c: c.fail(item_id, action_id, reason))


@DBOS.workflow()
def work_item_workflow(item_id: str) -> str:
    """A WorkItem's life: advance, run, wait for the person; ends with its final state."""
    while True:
        nxt = _advance(item_id)
        if nxt["what"] in ("end", "failed"):
            return nxt["reason"]
        if nxt["what"] == "run":
            ran = _run(item_id, nxt["action"])
            if ran["crashed"]:
                _fail(item_id, nxt["action"], ran["crashed"])
            elif ran["retry_in"]:
                DBOS.sleep(ran["retry_in"])  # durable: a restart does not wait again from the start
        else:
            DBOS.recv(PERSON, timeout_seconds=WAIT_S)


class WorkExecutor:
    """Runs this data folder's WorkItems in this process (one process at a time)."""

    def __init__(self, center: WorkCenter, home: Home) -> None:
        self._center = center
        self._home = home
        self._lock_fd: int | None = None
        self._launched = False

    @property
    def launched(self) -> bool:
        """DBOS runs in this process (its threads may be parked in ``recv`` until it ends)."""
        return self._launched

    async def open(self) -> None:
        """Take the executor lock, launch DBOS: in-flight WorkItems resume at once."""
        global _center, _loop
        self._lock_fd = take_lock(self._home)
        _center, _loop = self._center, asyncio.get_running_loop()
        _quiet_dbos_console()
        DBOS(config={"name": "foya-work", "system_database_url": f"sqlite:///{system_database(self._home)}",
                     "system_database_engine": system_engine(self._home), "application_version": APP_VERSION,
                     "log_level": "WARNING"})
        await asyncio.to_thread(DBOS.launch)
        self._launched = True

    async def start(self, item_id: str) -> None:
        """Start the WorkItem's workflow (its id is the WorkItem's: starting twice runs it once)."""
        def go() -> None:
            if DBOS.get_workflow_status(item_id) is not None:
                return  # exists: recovered at launch (in flight) or finished
            with SetWorkflowID(item_id):
                DBOS.start_workflow(work_item_workflow, item_id)
        await asyncio.to_thread(go)

    async def wake(self, item_id: str) -> None:
        """Tell a waiting workflow to look at its WorkItem again."""
        def go() -> None:
            if DBOS.get_workflow_status(item_id) is not None:
                DBOS.send(item_id, "look", PERSON)
        await asyncio.to_thread(go)

    async def settle(self) -> None:
        """Return once no WorkItem with a live workflow is running (all wait or have ended)."""
        while True:
            pending = {w.workflow_id for w in await asyncio.to_thread(
                DBOS.list_workflows, status=LIVE, load_input=False, load_output=False)}
            if not any(item.id in pending for item in await self._center.in_flight()):
                return
            await asyncio.sleep(SETTLE_POLL_S)

    async def close(self) -> None:
        """Stop DBOS and give the lock back (workflows parked in ``recv`` stay pending in the
        system database: the next executor recovers them)."""
        if self._launched:
            await asyncio.to_thread(DBOS.destroy, workflow_completion_timeout_sec=0)
        if self._lock_fd is not None:
            os.close(self._lock_fd)
            self._lock_fd = None


def take_lock(home: Home) -> int:
    """The executor lock of this data folder (``WorkBusyElsewhere`` naming the holder)."""
    home.run.mkdir(parents=True, exist_ok=True)
    path = home.run / "work-executor.lock"
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = os.pread(fd, 32, 0).decode(errors="replace").strip() or "?"
        os.close(fd)
        raise WorkBusyElsewhere(f"The Work Center is running in another foya process (pid {holder}); "
                                f"it continues the WorkItems. Try again when it has ended.",
                                pid=holder) from None
    os.ftruncate(fd, 0)
    os.pwrite(fd, str(os.getpid()).encode(), 0)
    return fd


def executor_running(home: Home) -> bool:
    """Another process holds this data folder's executor lock right now."""
    try:
        fd = take_lock(home)
    except WorkBusyElsewhere:
        return True
    os.close(fd)
    return False


def wake_elsewhere(home: Home, item_id: str) -> None:
    """Wake a WorkItem's workflow that another process's executor runs."""
    client = DBOSClient(system_database_engine=system_engine(home))
    try:
        with contextlib.suppress(Exception):  # no such workflow yet: nothing waits to be woken
            client.send(item_id, "look", PERSON)
    finally:
        client.destroy()


def _quiet_dbos_console() -> None:
    """DBOS prints to the console unless its logger has a handler: its lines go to Foya's log."""
    dbos_log = logging.getLogger("dbos")
    if not dbos_log.handlers:
        dbos_log.addHandler(logging.NullHandler())
