"""The WAL is checkpointed by a thread of its own, not inside the writer's commits: it stays
bounded while messages are appended one by one, the store's close still leaves no WAL behind,
and a checkpoint that cannot run changes nothing that was committed."""

from __future__ import annotations

import asyncio
import contextlib
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


@pytest.fixture
def small(monkeypatch: pytest.MonkeyPatch) -> None:
    """Smaller thresholds: shorter tests, same rules (the bound 2,000 frames, 8 MB)."""
    monkeypatch.setattr(wal_checkpoints, "ROWS", 200)
    monkeypatch.setattr(wal_checkpoints, "FRAMES_LIMIT", 500)
    monkeypatch.setattr(wal_checkpoints, "BOUND_FRAMES", 2000)


async def test_the_wal_stays_bounded_while_messages_are_appended_beside_a_reader(home: Home, small: None) -> None:
    """Messages appended back to back while the GUI's reader reads: after every append the WAL file
    is within its bound, however far behind the checkpoint thread is. Before the writer held itself
    back it was 19-34 MB after 1,500 appends in 6 of 30 no-Qt runs beside ``stress-ng --cpu 2``."""
    store = Store(home)
    checkpoints = store._checkpoints
    assert checkpoints is not None
    try:
        writer = await store.write(
            lambda: store._db.connection().execute("PRAGMA wal_autocheckpoint").fetchone()[0])  # type: ignore[no-untyped-call]
        assert writer == 0  # the commits never checkpoint themselves
        now = now_ms()
        session = await store.write(create_session, Session(id=new_id("ses"), title="t", created_at=now,
                                                            updated_at=now))
        appending = True
        reads = 0

        async def read() -> None:
            nonlocal reads
            while appending:
                await store.read(message_count, session.id)
                reads += 1
        reader = asyncio.create_task(read())
        largest = 0
        for i in range(1500):
            await store.write(append_message, Message(new_id("msg"), session.id, "user", (TextPart(f"message {i}"),),
                                                      created_at=now_ms()))
            largest = max(largest, _wal(home).stat().st_size)
        appending = False
        await reader
        assert reads > 0
        # each append writes about seven frames: 10,000 frames, 43 MB, if the WAL never started over
        assert largest <= checkpoints.bound
        assert await store.read(message_count, session.id) == 1500
    finally:
        await store.close()
    assert not _wal(home).exists()  # the last close checkpointed the rest and removed the WAL
    con = sqlite3.connect(home.database)
    assert con.execute("PRAGMA quick_check").fetchone()[0] == "ok"
    assert con.execute("SELECT count(*) FROM message_row").fetchone()[0] == 1500
    con.close()


def _writer(path: Path) -> tuple[sqlite3.Connection, WalCheckpointer]:
    """A WAL database, its writer (one page per commit below) and a checkpointer attached to it."""
    writer = sqlite3.connect(path, isolation_level=None, timeout=10)
    writer.execute("PRAGMA journal_mode=wal")
    writer.execute("PRAGMA synchronous=normal")  # as the store's: no fsync per commit
    writer.execute("CREATE TABLE t(x)")
    checkpoints = WalCheckpointer(path)
    checkpoints.attach(writer)
    return writer, checkpoints


def _commit(writer: sqlite3.Connection, checkpoints: WalCheckpointer) -> int:
    """One commit of the writer as the store makes it (``note`` after it); the WAL file's size."""
    writer.execute("INSERT INTO t VALUES (randomblob(100))")
    checkpoints.note(writer)
    return _wal_of(checkpoints._path).stat().st_size


def test_the_writer_bounds_the_wal_when_the_thread_does_not_checkpoint(
        tmp_path: Path, small: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """The thread may be arbitrarily late on a loaded machine; here it never wakes at all. The writer
    empties the WAL itself whenever a commit took it past the bound, so it never stays past it."""
    monkeypatch.setattr(wal_checkpoints, "ROWS", 10**9)  # the thread is never woken
    writer, checkpoints = _writer(tmp_path / "foya.sqlite3")
    try:
        assert writer.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == 0
        sizes = [_commit(writer, checkpoints) for _ in range(3 * wal_checkpoints.BOUND_FRAMES)]
        assert max(sizes) <= checkpoints.bound
        assert checkpoints.done == 0 and checkpoints.writer_checkpoints >= 2
        assert writer.execute("PRAGMA busy_timeout").fetchone()[0] == 10_000  # the writer's own again
    finally:
        checkpoints.close()
        writer.close()
    con = sqlite3.connect(tmp_path / "foya.sqlite3")
    assert con.execute("SELECT count(*) FROM t").fetchone()[0] == 3 * wal_checkpoints.BOUND_FRAMES
    assert con.execute("PRAGMA quick_check").fetchone()[0] == "ok"
    con.close()


def test_a_reader_holding_frames_lets_the_wal_grow_by_another_bound_then_it_is_emptied(
        tmp_path: Path, small: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """A reader's snapshot keeps the frames after it in the WAL (SQLite's checkpoint starvation): the
    writer's checkpoint waits ``BOUND_WAIT_S`` for it and gives up, and the writer does not wait again
    at every commit but once the WAL grew by another bound. When the WAL starts over, the file is
    truncated back to the bound (``journal_size_limit``); past the bound it is emptied."""
    monkeypatch.setattr(wal_checkpoints, "ROWS", 10**9)
    monkeypatch.setattr(wal_checkpoints, "BOUND_WAIT_S", 0.05)
    path = tmp_path / "foya.sqlite3"
    writer, checkpoints = _writer(path)
    reader = sqlite3.connect(path, isolation_level=None)
    bound = checkpoints.bound
    try:
        _commit(writer, checkpoints)
        reader.execute("BEGIN")
        assert reader.execute("SELECT count(*) FROM t").fetchone()[0] == 1  # its snapshot: one row
        while _commit(writer, checkpoints) <= bound:
            pass
        assert checkpoints.writer_tries == 1 and checkpoints.writer_checkpoints == 0  # busy: the reader's frames
        sizes = [_commit(writer, checkpoints) for _ in range(wal_checkpoints.BOUND_FRAMES // 2)]
        assert sizes[-1] > bound and checkpoints.writer_tries == 1  # not tried again at every commit
        reader.execute("COMMIT")
        with contextlib.closing(sqlite3.connect(path, isolation_level=None)) as other:  # as the thread does
            assert other.execute("PRAGMA wal_checkpoint(RESTART)").fetchone()[0] == 0
        assert _commit(writer, checkpoints) == bound  # started over: truncated to the bound
        sizes = []
        while checkpoints.writer_checkpoints == 0 and len(sizes) < 2 * wal_checkpoints.BOUND_FRAMES:
            sizes.append(_commit(writer, checkpoints))
        assert max(sizes) <= bound and checkpoints.writer_checkpoints == 1  # bounded again, then emptied
        assert sizes[-1] < bound / 100
    finally:
        checkpoints.close()
        reader.close()
        writer.close()


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


def _wal_of(path: Path) -> Path:
    return path.with_name(path.name + "-wal")
