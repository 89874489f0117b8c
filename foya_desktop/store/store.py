"""The async store: every Peewee call runs on one dedicated writer thread
(or a read thread), so the asyncio/Qt thread never waits on disk.

Callers publish events only after the awaited write returned, i.e. after
commit. Each write method is one ``IMMEDIATE`` transaction.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar, cast

import peewee as pw

from foya_desktop.core.errors import StorageReadOnly
from foya_desktop.core.figures import Usage
from foya_desktop.core.ids import now_ms
from foya_desktop.core.messages import Message
from foya_desktop.core.model import VP, Connection, Phase, Project, Session
from foya_desktop.store import catalog, history, leases, sessions
from foya_desktop.store.artifacts import ArtifactFiles
from foya_desktop.store.database import open_database, open_database_readonly
from foya_desktop.store.events_log import events_of
from foya_desktop.store.faults import storage_errors
from foya_desktop.store.home import Home
from foya_desktop.store.schema import ArtifactRow, UsageRow

T = TypeVar("T")


class Store:
    """Async façade over the SQLite database and the artifact files.

    ``kind`` ("window" or "cli") is what other processes are told when this
    one holds a session they want. ``read_only`` opens the file without a
    lease, migration or write lock (``sessions list/show``; a read-only data
    folder); every write then fails.
    """

    def __init__(self, home: Home, *, kind: str = "cli", read_only: bool = False) -> None:
        self.home = home if read_only else home.ensure()
        self.kind = kind
        self._writer = ThreadPoolExecutor(1, thread_name_prefix="foya-store-writer")
        self._reader = ThreadPoolExecutor(1, thread_name_prefix="foya-store-reader")
        self.files = ArtifactFiles(self.home.artifacts)
        self.lease: leases.LeaseFile | None = None
        try:
            if read_only:
                self._db: pw.SqliteDatabase = self._writer.submit(
                    open_database_readonly, self.home.database).result()
            else:
                self._db = self._writer.submit(open_database, self.home.database, self.home.backups).result()
                self.lease = self._writer.submit(self._take_lease).result()
        except BaseException:
            self._writer.shutdown(wait=False)
            self._reader.shutdown(wait=False)
            raise

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

    async def held_by_live_process(self, session_id: str) -> bool:
        """Whether some live process (this one included) holds the session now (reads only)."""
        return await self.read(leases.held_by_live_process, self.home.run, session_id)

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

    async def write(self, fn: Callable[..., T], *args: Any) -> T:
        """Run ``fn(*args)`` in one IMMEDIATE transaction on the writer thread."""
        return await asyncio.get_running_loop().run_in_executor(self._writer, self._job, fn, args)

    def _job(self, fn: Callable[..., T], args: tuple[Any, ...]) -> T:
        with storage_errors(self.home), self._db.atomic():
            return fn(*args)

    def _read_job(self, fn: Callable[..., T], args: tuple[Any, ...]) -> T:
        with storage_errors(self.home):
            return fn(*args)

    async def read(self, fn: Callable[..., T], *args: Any) -> T:
        """Run a read-only ``fn(*args)`` on the reader thread (WAL: never blocked by writes)."""
        return await asyncio.get_running_loop().run_in_executor(self._reader, self._read_job, fn, args)

    def write_sync(self, fn: Callable[..., T], *args: Any) -> T:
        """Blocking variant for start-up and command-line paths outside an event loop."""
        return self._writer.submit(self._job, fn, args).result()

    def close_sync(self) -> None:
        """Blocking :meth:`close` for start-up failures (no event loop needed)."""
        lease = self.lease
        try:
            if lease is not None:
                self.write_sync(leases.unregister, lease.lease_id)
        finally:
            if lease is not None:
                lease.release()
            self._reader.submit(self._db.close).result()
            self._writer.submit(self._db.close).result()
            self._reader.shutdown(wait=True)
            self._writer.shutdown(wait=True)

    async def close(self) -> None:
        """Give up the lease, close both threads' connections and stop the threads."""
        loop = asyncio.get_running_loop()
        lease = self.lease
        if lease is not None:
            try:
                await self.write(leases.unregister, lease.lease_id)
            finally:
                lease.release()
        await loop.run_in_executor(self._reader, self._db.close)
        await loop.run_in_executor(self._writer, self._db.close)
        self._reader.shutdown(wait=True)
        self._writer.shutdown(wait=True)

    # ---- sessions -----------------------------------------------------------

    async def create_session(self, session: Session) -> Session:
        """Insert a new session."""
        return await self.write(sessions.create_session, session)

    async def get_session(self, session_id: str) -> Session:
        """One session."""
        return await self.read(sessions.get_session, session_id)

    async def list_sessions(self) -> list[Session]:
        """All sessions, pinned first."""
        return await self.read(sessions.list_sessions)

    async def update_session(self, session_id: str, changes: dict[str, Any]) -> Session:
        """Change metadata fields."""
        return await self.write(sessions.update_session, session_id, changes)

    async def bind_project(self, session_id: str, project_id: str, workdir: str) -> Session:
        """Bind an unbound session to a project."""
        return await self.write(sessions.bind_project, session_id, project_id, workdir)

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

    async def descendants(self, session_id: str) -> list[str]:
        """Child session ids, deepest first."""
        return await self.read(sessions.descendants, session_id)

    async def delete_session(self, session_id: str) -> None:
        """Delete one session's rows, tombstone it, then drop orphaned blob files."""
        orphans = await self.write(sessions.delete_session_rows, session_id)
        for sha in orphans:
            await self.write(self.files.delete, sha)

    async def is_tombstoned(self, session_id: str) -> bool:
        """Whether the id belongs to a deleted session."""
        return await self.read(sessions.is_tombstoned, session_id)

    # ---- history ------------------------------------------------------------

    async def append_message(self, message: Message) -> Message:
        """Persist a message (event + projection)."""
        return await self.write(history.append_message, message)

    async def import_messages(self, session_id: str, messages: list[Message]) -> list[Message]:
        """Persist many messages in one transaction."""
        return await self.write(history.append_messages, session_id, messages)

    async def update_message(self, message: Message) -> Message:
        """Replace a stored message's parts/status."""
        return await self.write(history.update_message, message)

    async def complete_tool_call(self, call_message: Message, result: Message,
                                 changes: list[tuple[str, str | None, str | None, str]] | None = None,
                                 ) -> tuple[Message, Message]:
        """Persist a tool result with its call's final state and file changes (one transaction)."""
        return await self.write(history.complete_tool_call, call_message, result, changes or [])

    async def get_message(self, message_id: str) -> Message:
        """One message."""
        return await self.read(history.get_message, message_id)

    async def message_count(self, session_id: str) -> int:
        """Number of valid messages."""
        return await self.read(history.message_count, session_id)

    async def history_page(self, session_id: str, before_seq: int | None = None,
                           limit: int = 200) -> list[Message]:
        """A page of valid history, oldest first."""
        return await self.read(history.history_page, session_id, before_seq, limit)

    async def valid_messages(self, session_id: str, after_seq: int = 0) -> list[Message]:
        """The whole valid history after ``after_seq``."""
        return await self.read(history.valid_messages, session_id, after_seq)

    async def events(self, session_id: str) -> list[tuple[int, str, dict[str, Any]]]:
        """The raw event log."""
        return await self.read(events_of, session_id)

    async def replay(self, session_id: str) -> list[Message]:
        """The valid history derived from events alone."""
        return await self.read(history.replay, session_id)

    # ---- artifacts ----------------------------------------------------------

    async def put_artifact(self, data: bytes, mime: str) -> str:
        """Store a blob (file first, then its row) and return its sha256."""
        def job() -> str:
            sha = self.files.put(data)
            ArtifactRow.insert(sha=sha, mime=mime, size=len(data),
                               created_at=now_ms()).on_conflict_ignore().execute()
            return sha
        return await self.write(job)

    async def read_artifact(self, sha: str) -> bytes:
        """A blob's bytes."""
        return await self.read(self.files.get, sha)

    # ---- usage ledger -------------------------------------------------------

    async def record_usage(self, session_id: str, turn_id: str, speaker: str, model: str,
                           usage: Usage, connection: str = "") -> None:
        """Add one request's usage to the ledger (kept after session deletion)."""
        await self.write(lambda: UsageRow.insert(
            session_id=session_id, turn_id=turn_id, speaker=speaker, model=model, connection=connection,
            input_tokens=usage.input_tokens, output_tokens=usage.output_tokens,
            cache_read_tokens=usage.cache_read_tokens, cache_write_tokens=usage.cache_write_tokens,
            created_at=now_ms()).execute())

    async def usage_totals(self, session_id: str) -> Usage:
        """Summed usage for a session id (also after deletion)."""
        def job() -> Usage:
            fn = pw.fn
            cols = (UsageRow.input_tokens, UsageRow.output_tokens, UsageRow.cache_read_tokens,
                    UsageRow.cache_write_tokens)
            query = UsageRow.select(*[fn.SUM(c) for c in cols]).where(UsageRow.session_id == session_id)
            row = cast(tuple[int | None, ...], query.tuples().get())
            return Usage(row[0], row[1], row[2], row[3])
        return await self.read(job)

    # ---- catalog ------------------------------------------------------------

    async def ensure_project(self, path: str, name: str) -> Project:
        """Get or register the project for a folder."""
        return await self.write(catalog.ensure_project, path, name)

    async def get_project(self, project_id: str) -> Project:
        """One project."""
        return await self.read(catalog.get_project, project_id)

    async def list_projects(self) -> list[Project]:
        """All projects."""
        return await self.read(catalog.list_projects)

    async def add_project_rule(self, project_id: str, key: str) -> None:
        """Persist an "always allow" rule."""
        await self.write(catalog.add_project_rule, project_id, key)

    async def project_rules(self, project_id: str) -> set[str]:
        """A project's rule keys."""
        return await self.read(catalog.project_rules, project_id)

    async def list_vps(self) -> list[VP]:
        """User-defined VPs."""
        return await self.read(catalog.list_vps)

    async def save_vp(self, vp: VP) -> VP:
        """Insert or replace a VP."""
        return await self.write(catalog.save_vp, vp)

    async def list_connections(self) -> list[Connection]:
        """Configured connections."""
        return await self.read(catalog.list_connections)

    async def get_connection(self, name: str) -> Connection:
        """One connection."""
        return await self.read(catalog.get_connection, name)

    async def save_connection(self, conn: Connection) -> Connection:
        """Insert or replace a connection."""
        return await self.write(catalog.save_connection, conn)

    async def delete_connection(self, name: str) -> None:
        """Remove a connection."""
        await self.write(catalog.delete_connection, name)
