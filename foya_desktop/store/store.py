"""The async store: every Peewee call runs on one dedicated writer thread
(or a read thread), so the asyncio/Qt thread never waits on disk.

One dialect (issue 7). A caller names the thread and the function:
``await store.read(valid_messages, session_id)``,
``await store.write(update_session, session_id, changes)``. The functions are
plain synchronous Peewee code grouped by what they touch in this package's
modules (``sessions``, ``history``, ``catalog``, ``ledger``, ``events_log``,
``artifacts``, ``ops_*``, ``memory`` …). ``Store`` itself holds only the
plumbing — the two threads, the transaction, the cross-process lease, the
artifact files — and the few operations that need that plumbing (claiming and
releasing a session, recording a phase and releasing in one transaction,
deleting a session with its orphaned blob files).

Why this dialect and not named async methods: the engine already reached most
of the store this way (about 80 calls to ``ops_*``, ``catalog``, ``memory``…);
a method per function would have grown ``Store`` into a mirror of every module
with ~120 one-line pass-throughs, and every new query would need two edits.
``read``/``write`` at the call site also says what a reader of the engine needs
to know — which thread runs it and whether it is one ``IMMEDIATE``
transaction — and, typed with ``ParamSpec``, mypy checks the arguments as if
the function were called directly. ``tests/store/test_store_dialect.py`` fails
if a one-line pass-through method comes back.

Callers publish events only after the awaited write returned, i.e. after
commit. Each ``write`` is one ``IMMEDIATE`` transaction.
"""

from __future__ import annotations

import asyncio
import functools
import sqlite3
from collections.abc import Callable
from typing import ParamSpec, TypeVar

import peewee as pw

from foya_desktop.core.errors import StorageReadOnly
from foya_desktop.core.model import Phase
from foya_desktop.store import leases, ops_delete, sessions
from foya_desktop.store.artifacts import ArtifactFiles
from foya_desktop.store.database import open_database, open_database_readonly, write_transaction
from foya_desktop.store.faults import storage_errors, translate
from foya_desktop.store.home import Home
from foya_desktop.store.lane import Lane
from foya_desktop.store.wal_checkpoints import WalCheckpointer

T = TypeVar("T")
P = ParamSpec("P")


class Store:
    """Async façade over the SQLite database and the artifact files.

    ``kind`` ("window" or "cli") is what other processes are told when this
    one holds a session they want. ``read_only`` opens the file without a
    lease, migration or write lock (``sessions list/show``; a read-only data
    folder); every write then fails.
    """

    def __init__(self, home: Home, *, kind: str = "cli", read_only: bool = False) -> None:
        if not read_only:
            with storage_errors(home):  # a read-only or foreign data folder: a sentence, not a traceback
                home = home.ensure()
        self.home = home
        self.kind = kind
        self._writer = Lane("foya-store-writer")
        self._reader = Lane("foya-store-reader")
        self.files = ArtifactFiles(self.home.artifacts)
        self.lease: leases.LeaseFile | None = None
        self._checkpoints: WalCheckpointer | None = None
        try:
            if read_only:
                self._db: pw.SqliteDatabase = self._writer.submit(
                    functools.partial(open_database_readonly, self.home.database)).result()
            else:
                self._db = self._writer.submit(
                    functools.partial(open_database, self.home.database, self.home.backups)).result()
                self.lease = self._writer.submit(self._take_lease).result()
                self._checkpoints = self._writer.submit(self._checkpoint_elsewhere).result()
        except BaseException:
            if self._checkpoints is not None:
                self._checkpoints.close()
            self._writer.shutdown(wait=False)
            self._reader.shutdown(wait=False)
            raise

    def _checkpoint_elsewhere(self) -> WalCheckpointer:
        """The writer's commits stop checkpointing the WAL; a thread of their own does it
        (``wal_checkpoints``: inline checkpoints were a sixth of an append's cost)."""
        checkpoints = WalCheckpointer(self.home.database)
        checkpoints.attach(self._db.connection())  # type: ignore[no-untyped-call]
        return checkpoints

    def _take_lease(self) -> leases.LeaseFile:
        with storage_errors(self.home):
            lease = leases.LeaseFile.take(self.home.run)
            try:
                with self._db.atomic():
                    leases.register(lease, self.kind)
            except BaseException:
                leases.forget(lease.lease_id)
                lease.release()
                raise
        return lease

    @property
    def read_only(self) -> bool:
        """Opened without a lease: reads only."""
        return self.lease is None

    # ---- sessions owned across processes -----------------------------------

    def _lease_id(self) -> str:
        if self.lease is None:
            raise StorageReadOnly("This command opened the database read-only; it cannot change it.")
        return self.lease.lease_id

    async def claim(self, session_id: str, what: str,
                    repair: Callable[[str], object] | None = None) -> bool:
        """Claim the session for this process (``SessionBusyElsewhere`` if another live one has it).

        When the session needs recovery first — its previous owner died, or a
        crash left it mid-turn (phase not idle) — ``repair(session_id)`` runs in
        the same transaction and ``True`` is returned.
        """
        lease_id = self._lease_id()
        def job() -> bool:
            taken_over = leases.claim(self.home.run, lease_id, session_id, what)
            needs = taken_over or sessions.phase_of(session_id) not in ("", str(Phase.IDLE))
            if needs and repair is not None:
                repair(session_id)
            return needs
        return await self.write(job)

    async def owner_elsewhere(self, session_id: str) -> None:
        """Raise ``SessionBusyElsewhere`` if a live other process holds the session (claims nothing)."""
        own = self.lease.lease_id if self.lease else None
        await self.read(leases.check_free, self.home.run, own, session_id)

    async def release(self, session_id: str) -> None:
        """Give the session back to every process (idle here)."""
        if self.lease is not None:
            await self.write(leases.release, self.lease.lease_id, session_id)

    def claimed_elsewhere(self) -> set[str]:
        """Sessions a live other process holds now (call inside a writer-thread transaction)."""
        return leases.claimed_elsewhere(self.home.run, self.lease.lease_id if self.lease else None)

    def live_lease_ids(self) -> set[str]:
        """Ids of live leases (call inside a writer-thread transaction)."""
        return set(leases.live_leases(self.home.run))

    # ---- plumbing -----------------------------------------------------------

    async def write(self, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """Run ``fn(*args, **kwargs)`` in one IMMEDIATE transaction on the writer thread."""
        return await self._writer.run(functools.partial(self._job, functools.partial(fn, *args, **kwargs)))

    def _job(self, call: Callable[[], T]) -> T:
        """``call()`` in one write transaction, storage faults in plain words (what ``storage_errors``
        does, inline: a store write is the append hot path, issue 14)."""
        try:
            result = write_transaction(self._db, call)
            if self._checkpoints is not None:
                self._checkpoints.note(self._db.connection())  # type: ignore[no-untyped-call]
            return result
        except (OSError, sqlite3.Error, pw.PeeweeException) as exc:
            plain = translate(exc, self.home)
            if plain is None:
                raise
            raise plain from exc

    def _read_job(self, call: Callable[[], T]) -> T:
        with storage_errors(self.home):
            return call()

    async def read(self, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """Run a read-only ``fn(*args, **kwargs)`` on the reader thread (WAL: never blocked by writes)."""
        call = functools.partial(fn, *args, **kwargs)
        return await self._reader.run(functools.partial(self._read_job, call))

    def write_sync(self, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """Blocking variant for start-up and command-line paths outside an event loop."""
        call = functools.partial(fn, *args, **kwargs)
        return self._writer.submit(functools.partial(self._job, call)).result()

    def close_sync(self) -> None:
        """Blocking :meth:`close` for start-up failures (no event loop needed)."""
        lease = self.lease
        try:
            if lease is not None:
                self.write_sync(leases.unregister, lease.lease_id)
        finally:
            if lease is not None:
                lease.release()
            if self._checkpoints is not None:
                self._checkpoints.close()
            self._reader.submit(self._db.close).result()
            self._writer.submit(self._db.close).result()
            self._reader.shutdown(wait=True)
            self._writer.shutdown(wait=True)

    async def close(self) -> None:
        """Give up the lease, close both threads' connections and stop the threads."""
        lease = self.lease
        if lease is not None:
            try:
                await self.write(leases.unregister, lease.lease_id)
            finally:
                lease.release()
        if self._checkpoints is not None:
            await asyncio.to_thread(self._checkpoints.close)  # a checkpoint under way may take a moment
        await self._reader.run(self._db.close)
        await self._writer.run(self._db.close)
        self._reader.shutdown(wait=True)
        self._writer.shutdown(wait=True)

    # ---- sessions -----------------------------------------------------------

    async def set_phase(self, session_id: str, phase: Phase, *, release: bool = False) -> None:
        """Record the kernel's phase; ``release`` also gives the session back (one transaction)."""
        lease_id = self.lease.lease_id if release and self.lease is not None else None
        def job() -> None:
            sessions.set_phase(session_id, phase)
            if lease_id is not None:
                leases.release(lease_id, session_id)
        await self.write(job)

    def reset_phases(self, exclude: set[str] | None = None) -> int:
        """Start-up: every session no live process holds back to idle."""
        return self.write_sync(lambda: sessions.reset_phases(
            self.claimed_elsewhere() if exclude is None else exclude))

    async def delete_sessions(self, session_ids: list[str]) -> list[str]:
        """Delete the sessions' rows and tombstone them in one transaction (``ops_delete``), then
        remove the blob files no remaining session references; returns those hashes.

        The rows' transaction is shielded: a cancelled caller never leaves half a tree deleted.
        """
        orphans = await asyncio.shield(self.write(ops_delete.delete_sessions, session_ids))
        await asyncio.to_thread(self._remove_blobs, orphans)
        return orphans

    def _remove_blobs(self, shas: list[str]) -> None:
        for sha in shas:
            self.files.delete(sha)
