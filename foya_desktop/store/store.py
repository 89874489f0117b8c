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

from foya_desktop.core.events import Usage
from foya_desktop.core.ids import now_ms
from foya_desktop.core.messages import Message
from foya_desktop.core.model import VP, Connection, Phase, Project, Session
from foya_desktop.store import catalog, history, sessions
from foya_desktop.store.artifacts import ArtifactFiles
from foya_desktop.store.database import open_database
from foya_desktop.store.events_log import events_of
from foya_desktop.store.home import Home
from foya_desktop.store.schema import ArtifactRow, UsageRow

T = TypeVar("T")


class Store:
    """Async façade over the SQLite database and the artifact files."""

    def __init__(self, home: Home) -> None:
        self.home = home.ensure()
        self._writer = ThreadPoolExecutor(1, thread_name_prefix="foya-store-writer")
        self._reader = ThreadPoolExecutor(1, thread_name_prefix="foya-store-reader")
        self.files = ArtifactFiles(self.home.artifacts)
        try:
            self._db: pw.SqliteDatabase = self._writer.submit(
                open_database, self.home.database, self.home.backups).result()
        except BaseException:
            self._writer.shutdown(wait=False)
            self._reader.shutdown(wait=False)
            raise

    # ---- plumbing -----------------------------------------------------------

    async def write(self, fn: Callable[..., T], *args: Any) -> T:
        """Run ``fn(*args)`` in one IMMEDIATE transaction on the writer thread."""
        def job() -> T:
            with self._db.atomic():
                return fn(*args)
        return await asyncio.get_running_loop().run_in_executor(self._writer, job)

    async def read(self, fn: Callable[..., T], *args: Any) -> T:
        """Run a read-only ``fn(*args)`` on the reader thread (WAL: never blocked by writes)."""
        return await asyncio.get_running_loop().run_in_executor(self._reader, fn, *args)

    def write_sync(self, fn: Callable[..., T], *args: Any) -> T:
        """Blocking variant for start-up and command-line paths outside an event loop."""
        def job() -> T:
            with self._db.atomic():
                return fn(*args)
        return self._writer.submit(job).result()

    async def close(self) -> None:
        """Close both threads' connections and stop the threads."""
        loop = asyncio.get_running_loop()
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

    async def set_phase(self, session_id: str, phase: Phase) -> None:
        """Record the kernel's phase."""
        await self.write(sessions.set_phase, session_id, phase)

    def reset_phases(self) -> int:
        """Start-up: every session idle."""
        return self.write_sync(sessions.reset_phases)

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
