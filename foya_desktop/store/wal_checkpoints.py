"""Checkpoints of the write-ahead log, on a thread of their own.

A checkpoint copies what the WAL holds back into the database file. By default SQLite runs
one inside the commit that takes the WAL past 1,000 pages, so every few hundred appends one
append waited for that copy and its fsyncs: 2,600 single-message appends a second with those
inline checkpoints, 3,100 with this thread, in the same ``benchmarks.store`` run (issue 14:
append through the store vs raw ``sqlite3``). SQLite's documentation names the remedy: turn
the automatic checkpoints off "and run checkpoints during idle moments or in a separate
thread or process" (https://www.sqlite.org/wal.html, "Automatic Checkpoint").

The writer's connection therefore has ``wal_autocheckpoint=0`` and tells this thread how
many rows it has changed after each commit (``note``, about a microsecond). About
every ``ROWS`` changed rows — SQLite's own threshold, one page per row, near enough — the
thread wakes and runs a ``PASSIVE`` checkpoint on a connection of its own: passive never
waits for a lock and never blocks the writer or a reader. But SQLite starts the WAL over
from its beginning only after a checkpoint copied *every* frame, and a writer that keeps
appending while the passive one runs always leaves a few behind: the WAL grew without end
(43 MB after 1,500 appends, measured). So once the WAL is ``FRAMES_LIMIT`` frames long, a
``RESTART`` checkpoint follows the passive one: it holds writers back just while it copies
the frames added meanwhile, and the next commit writes the WAL from its beginning again.

That is not a bound, though: the thread copies frames more slowly than a writer appending back
to back adds them on a loaded machine (its passive checkpoint of 400 frames took 120 ms there,
fsync of the database file included, while the writer added 6,000), and nothing made the writer
wait, so the WAL grew by whatever the writer appended while the thread was behind: 19-34 MB after
1,500 appends in 6 of 30 test runs beside ``stress-ng --cpu 2``, though every restart the thread
tried was made (busy 0): late, not refused.
The writer therefore holds itself back, as SQLite's own automatic checkpoint does, only later:
after each commit it looks at the WAL file's size (one ``lseek``), and once that is past
``BOUND_FRAMES`` frames it checkpoints with ``TRUNCATE`` on its own connection before it returns —
it waits for a checkpoint of the thread under way first (SQLite's checkpoint lock has no busy
handler: without that wait the writer was told busy at once, and the WAL passed the bound in 19 of
20 loaded runs), then copies what is left, waits for readers up to
``BOUND_WAIT_S`` and empties the file. So the file never stays past the bound after a commit,
however slow the thread is. A reader that holds one snapshot longer than that keeps the frames
SQLite may not yet drop: the writer goes on and tries again once the file has grown by another
``BOUND_FRAMES`` (SQLite's "checkpoint starvation": https://www.sqlite.org/wal.html), and
``journal_size_limit`` truncates the file back to the bound when the WAL next starts over.

A checkpoint that fails (a full disk) changes nothing that was committed — it is in the
WAL — and is tried again at the next wake; the first failure is logged. ``close`` stops the
thread and closes its connection before the store closes its own, and the last of those
closes checkpoints whatever is left and removes the WAL, as before.
"""

from __future__ import annotations

import logging
import os
import sqlite3
import threading
from pathlib import Path

log = logging.getLogger(__name__)

ROWS = 1000
"""Changed rows between two checkpoints (SQLite's automatic threshold is 1,000 pages)."""
FRAMES_LIMIT = 2000
"""A WAL this long (8 MB of 4 KiB pages) has not started over since the last wake: finish the
checkpoint, holding writers back for the frames that are left."""
RESTART_WAIT_S = 0.1
"""How long the finishing checkpoint waits for a write or a read under way; writers wait for it
meanwhile, so it is short: a long read postpones the restart to the next wake instead."""
BOUND_FRAMES = 8000
"""The WAL file is never left longer than this (32 MB of 4 KiB pages) after a commit: past it the
writer checkpoints itself. Four times ``FRAMES_LIMIT``, so it does only when the thread fell well
behind: at twice, bursts of 1,000 appends on a loaded machine made the writer wait for the thread in
6 of 10 runs (10-15 ms, then 5-8 ms of its own checkpoint), some 5 % of the append's throughput in
one interleaved comparison; at four times, no measurable difference."""
BOUND_WAIT_S = 1.0
"""How long the writer's own checkpoint waits for readers of frames it must copy; a longer read
lets the WAL grow by another ``BOUND_FRAMES`` before the next try."""
WAL_HEADER = 32
FRAME_HEADER = 24


class WalCheckpointer:
    """One thread that checkpoints the database's WAL when the writer has written enough, and the
    writer's own checkpoint when the WAL is past its bound."""

    def __init__(self, path: Path) -> None:
        self._path = path
        self._wal = os.fspath(path.with_name(path.name + "-wal"))
        self._wal_fd: int | None = None
        """The WAL file, open to read its size after each commit: ``lseek`` to its end costs under a
        microsecond where ``stat`` of its path cost 2-6 µs (an append is about 150 µs). It never
        changes while the store is open: SQLite deletes a WAL only when its last connection closes,
        and the writer's closes after ``close``; a TRUNCATE empties the same file."""
        self._mark = 0
        """The writer's changed-rows count at the last wake (``note`` runs on the writer only)."""
        self._bound = self._limit = WAL_HEADER + BOUND_FRAMES * (4096 + FRAME_HEADER)
        """The file size past which the writer checkpoints (``attach`` sets it from the page size);
        ``_limit`` is raised past the file while a reader keeps the writer's checkpoint busy."""
        self._checkpointing = threading.Lock()
        """Held by whoever checkpoints: the writer waits for the thread instead of being told busy."""
        self._wake = threading.Event()
        self._stopping = False
        self._failed = False
        self.done = 0
        """Checkpoints run (tests)."""
        self.tries = 0
        """Checkpoints tried, failed ones included (tests)."""
        self.writer_tries = 0
        """Checkpoints the writer tried itself because the WAL was past the bound (tests)."""
        self.writer_checkpoints = 0
        """Those that emptied the WAL (tests)."""
        self._thread = threading.Thread(target=self._work, name="foya-store-checkpoints", daemon=True)
        self._thread.start()

    @property
    def bound(self) -> int:
        """The WAL file's size in bytes that no commit leaves it past (unless a reader holds frames)."""
        return self._bound

    def attach(self, writer: sqlite3.Connection) -> None:
        """Take the writer's checkpoints over: its commits no longer checkpoint, and SQLite truncates
        a WAL that starts over back to the bound (on the writer's thread, before its first ``note``)."""
        (page_size,) = writer.execute("PRAGMA page_size").fetchone()
        self._bound = self._limit = WAL_HEADER + BOUND_FRAMES * (int(page_size) + FRAME_HEADER)
        writer.execute("PRAGMA wal_autocheckpoint=0")
        writer.execute(f"PRAGMA journal_size_limit={self._bound}")

    def note(self, writer: sqlite3.Connection) -> None:
        """After a commit, on the writer's thread with its connection (outside any transaction)."""
        changed_rows = writer.total_changes
        if changed_rows - self._mark >= ROWS:
            self._mark = changed_rows
            self._wake.set()
        if self._wal_fd is None:
            try:
                self._wal_fd = os.open(self._wal, os.O_RDONLY)
            except OSError:  # no WAL (yet), or it cannot be looked at: nothing to bound
                return
        size = os.lseek(self._wal_fd, 0, os.SEEK_END)
        if size > self._limit and not writer.in_transaction:
            self._checkpoint_on(writer, size)
        elif size <= self._bound:
            self._limit = self._bound

    def _checkpoint_on(self, writer: sqlite3.Connection, size: int) -> None:
        """Copy the WAL into the database and empty it, on the writer's connection between two of its
        transactions: after the thread's checkpoint under way, waiting ``BOUND_WAIT_S`` for readers."""
        self.writer_tries += 1
        (waits,) = writer.execute("PRAGMA busy_timeout").fetchone()
        try:
            with self._checkpointing:
                writer.execute(f"PRAGMA busy_timeout={int(BOUND_WAIT_S * 1000)}")
                (busy, _frames, _copied) = writer.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
            if busy:  # a reader still needs frames: go on, try again once the WAL grew by another bound
                self._limit = size + self._bound
            else:
                self._limit = self._bound
                self.writer_checkpoints += 1
        except sqlite3.Error as exc:  # committed work is safe in the WAL; try again after the next bound
            self._limit = size + self._bound
            if not self._failed:
                self._failed = True
                log.warning("checkpointing %s on the writer failed (will retry): %s", self._path, exc)
        finally:
            writer.execute(f"PRAGMA busy_timeout={int(waits)}")

    def close(self) -> None:
        """Stop the thread (a checkpoint under way finishes first) and close its connection; after the
        writer's last ``note``, before the store closes its own connections."""
        self._stopping = True
        self._wake.set()
        self._thread.join()
        if self._wal_fd is not None:
            os.close(self._wal_fd)
            self._wal_fd = None

    def _work(self) -> None:
        con: sqlite3.Connection | None = None
        try:
            while True:
                self._wake.wait()
                self._wake.clear()
                if self._stopping:
                    return
                self.tries += 1
                try:
                    with self._checkpointing:
                        if con is None:
                            con = sqlite3.connect(self._path, isolation_level=None, check_same_thread=True,
                                                  timeout=RESTART_WAIT_S)
                        _busy, frames, _copied = con.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
                        if frames >= FRAMES_LIMIT:  # not started over since: finish, so the next commit does
                            con.execute("PRAGMA wal_checkpoint(RESTART)").fetchone()
                    self.done += 1
                except (OSError, sqlite3.Error) as exc:
                    if not self._failed:  # the next wake tries again; commits are safe in the WAL
                        self._failed = True
                        log.warning("checkpointing %s failed (will retry): %s", self._path, exc)
        finally:
            if con is not None:
                con.close()
