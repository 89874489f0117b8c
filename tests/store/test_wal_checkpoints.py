"""The WAL is checkpointed by a thread of its own, not inside the writer's commits: it stays
bounded while messages are appended one by one, the store's close still leaves no WAL behind,
and a checkpoint that cannot run changes nothing that was committed."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import time
from pathlib import Path

import pytest

from foya_desktop.core.ids import new_id, now_ms
from foya_desktop.core.messages import Message, TextPart
from foya_desktop.core.model import Session
from foya_desktop.store import wal_checkpoints
from foya_desktop.store.history import append_message, message_count
from foya_desktop.store.home import Home
from foya_desktop.store.sessions import create_session
from foya_desktop.store.store import Store
from foya_desktop.store.wal_checkpoints import WalCheckpointer


def _wal(home: Home) -> Path:
    return home.database.with_name(home.database.name + "-wal")


async def _append(store: Store, count: int) -> str:
    now = now_ms()
    session = await store.write(create_session, Session(id=new_id("ses"), title="t", created_at=now, updated_at=now))
    for i in range(count):
        await store.write(append_message, Message(new_id("msg"), session.id, "user", (TextPart(f"message {i}"),),
                                                  created_at=now_ms()))
    return session.id


async def test_the_wal_stays_bounded_without_the_writer_checkpointing(
        home: Home, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(wal_checkpoints, "ROWS", 200)  # smaller thresholds: a shorter test, same rules
    monkeypatch.setattr(wal_checkpoints, "FRAMES_LIMIT", 500)
    store = Store(home)
    try:
        writer = await store.write(
            lambda: store._db.connection().execute("PRAGMA wal_autocheckpoint").fetchone()[0])  # type: ignore[no-untyped-call]
        assert writer == 0  # the commits never checkpoint themselves
        session_id = await _append(store, 1500)
        checkpoints = store._checkpoints
        assert checkpoints is not None
        deadline = time.monotonic() + 10
        while checkpoints.done < 3 and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        assert checkpoints.done >= 3
        # each append writes about seven pages: unchecked (no RESTART) the WAL grew to 43 MB here;
        # bounded, it starts over every ~500 frames (2 MB), later when the thread is slow to run
        assert _wal(home).stat().st_size < 16 * 1024 * 1024
        assert await store.read(message_count, session_id) == 1500
    finally:
        await store.close()
    assert not _wal(home).exists()  # the last close checkpointed the rest and removed the WAL
    con = sqlite3.connect(home.database)
    assert con.execute("PRAGMA quick_check").fetchone()[0] == "ok"
    assert con.execute("SELECT count(*) FROM message_row").fetchone()[0] == 1500
    con.close()


def test_a_checkpoint_that_cannot_run_is_logged_once_and_retried(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    checkpoints = WalCheckpointer(tmp_path / "no such folder" / "foya.sqlite3")  # cannot be opened
    writer = sqlite3.connect(":memory:", isolation_level=None)  # a writer whose commits change rows
    writer.execute("CREATE TABLE t(x)")
    try:
        with caplog.at_level(logging.WARNING, logger=wal_checkpoints.__name__):
            for total in range(1, 4):
                writer.executemany("INSERT INTO t VALUES (?)", ((i,) for i in range(wal_checkpoints.ROWS)))
                checkpoints.note(writer)
                deadline = time.monotonic() + 5
                while checkpoints.tries < total and time.monotonic() < deadline:
                    time.sleep(0.01)
            assert checkpoints.tries == 3 and checkpoints.done == 0
    finally:
        checkpoints.close()
        writer.close()
    warnings = [r for r in caplog.records if "checkpointing" in r.getMessage()]
    assert len(warnings) == 1 and "will retry" in warnings[0].getMessage()


def test_a_restart_the_thread_cannot_make_is_made_by_the_writer(tmp_path: Path) -> None:
    """The checkpoint thread can copy only the frames no one still reads, and starting the WAL over
    waits for the rest; when it gives up (``RESTART_WAIT_S``: a reader, or the write lock held by
    a writer appending back to back on a loaded machine), the frames after the reader's snapshot
    stay in the WAL, and every later commit grew it (20 MB in a CI run). The writer now starts it
    over itself after its next commit, and later commits write the WAL from its beginning."""
    path = tmp_path / "foya.sqlite3"
    writer = sqlite3.connect(path, isolation_level=None, timeout=10)
    writer.execute("PRAGMA journal_mode=wal")
    writer.execute("PRAGMA wal_autocheckpoint=0")
    writer.execute("CREATE TABLE t(x)")
    checkpoints = WalCheckpointer(path)
    reader = sqlite3.connect(path, isolation_level=None)
    try:
        for _ in range(100):  # one page per commit
            writer.execute("INSERT INTO t VALUES (randomblob(100))")
        reader.execute("BEGIN")
        assert reader.execute("SELECT count(*) FROM t").fetchone()[0] == 100  # its snapshot: 100 rows
        for _ in range(wal_checkpoints.FRAMES_LIMIT):  # past the limit, after the reader's snapshot
            writer.execute("INSERT INTO t VALUES (randomblob(100))")
        checkpoints.note(writer)
        deadline = time.monotonic() + 10
        while checkpoints.done < 1 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert checkpoints.done == 1 and checkpoints.restart_due  # could not start the WAL over
        reader.execute("COMMIT")
        writer.execute("INSERT INTO t VALUES (randomblob(100))")
        checkpoints.note(writer)  # after the writer's commit: it starts the WAL over itself
        assert checkpoints.writer_restarts == 1 and not checkpoints.restart_due
        grown = _wal_of(path).stat().st_size
        for _ in range(100):
            writer.execute("INSERT INTO t VALUES (randomblob(100))")
        assert _wal_of(path).stat().st_size == grown  # written from its beginning, not appended to
        assert writer.execute("PRAGMA busy_timeout").fetchone()[0] == 10_000  # the writer's own again
    finally:
        checkpoints.close()
        reader.close()
        writer.close()
    con = sqlite3.connect(path)
    assert con.execute("SELECT count(*) FROM t").fetchone()[0] == wal_checkpoints.FRAMES_LIMIT + 201
    assert con.execute("PRAGMA quick_check").fetchone()[0] == "ok"
    con.close()


def test_a_restart_a_reader_keeps_busy_is_tried_again_after_the_next_commits(tmp_path: Path) -> None:
    """SQLite reports a restart a reader kept busy as a busy flag, not an error: the writer's own
    restart was counted as made, nothing tried again, and the WAL grew (34 MB in a CI run). It is
    now tried again after the next commits (``WRITER_TRIES``), and made once the reader is done."""
    path = tmp_path / "foya.sqlite3"
    writer = sqlite3.connect(path, isolation_level=None, timeout=10)
    writer.execute("PRAGMA journal_mode=wal")
    writer.execute("PRAGMA wal_autocheckpoint=0")
    writer.execute("CREATE TABLE t(x)")
    checkpoints = WalCheckpointer(path)
    reader = sqlite3.connect(path, isolation_level=None)
    try:
        writer.execute("INSERT INTO t VALUES (randomblob(100))")
        reader.execute("BEGIN")
        reader.execute("SELECT count(*) FROM t").fetchone()  # a snapshot the restart must wait for
        writer.execute("INSERT INTO t VALUES (randomblob(100))")
        checkpoints.restart_due = True  # as the thread leaves it when it could not restart
        checkpoints.note(writer)
        assert checkpoints.writer_restarts == 0 and checkpoints.restart_due  # busy: tried again later
        for _ in range(wal_checkpoints.WRITER_TRIES - 1):
            writer.execute("INSERT INTO t VALUES (randomblob(100))")
            checkpoints.note(writer)
        assert checkpoints.writer_restarts == 0 and not checkpoints.restart_due  # left to the next wake
        reader.execute("COMMIT")
        checkpoints.restart_due = True
        writer.execute("INSERT INTO t VALUES (randomblob(100))")
        checkpoints.note(writer)
        assert checkpoints.writer_restarts == 1 and not checkpoints.restart_due
    finally:
        checkpoints.close()
        reader.close()
        writer.close()


def _wal_of(path: Path) -> Path:
    return path.with_name(path.name + "-wal")
