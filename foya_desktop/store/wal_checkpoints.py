"""Checkpoints of the write-ahead log, on a thread of their own.

A checkpoint copies what the WAL holds back into the database file. By default SQLite runs
one inside the commit that takes the WAL past 1,000 pages, so every few hundred appends one
append waited for that copy and its fsyncs: 2,600 single-message appends a second with those
inline checkpoints, 3,100 with this thread, in the same ``benchmarks.store`` run (issue 14:
append through the store vs raw ``sqlite3``). SQLite's documentation names the remedy: turn
the automatic checkpoints off "and run checkpoints during idle moments or in a separate
thread or process" (https://www.sqlite.org/wal.html, "Automatic Checkpoint").

The writer's connection therefore has ``wal_autocheckpoint=0`` and tells this thread how
many rows it has changed after each commit (``note``, a few hundred nanoseconds). About
every ``ROWS`` changed rows — SQLite's own threshold, one page per row, near enough — the
thread wakes and runs a ``PASSIVE`` checkpoint on a connection of its own: passive never
waits for a lock and never blocks the writer or a reader. But SQLite starts the WAL over
from its beginning only after a checkpoint copied *every* frame, and a writer that keeps
appending while the passive one runs always leaves a few behind: the WAL grew without end
(43 MB after 1,500 appends, measured). So once the WAL is ``FRAMES_LIMIT`` frames long, a
``RESTART`` checkpoint follows the passive one: it holds writers back just while it copies
the frames added meanwhile, and the next commit writes the WAL from its beginning again.

That restart needs the write lock, and a writer appending back to back holds it most of the
time: SQLite's busy handler looks for a free moment only a few times in ``RESTART_WAIT_S``, and
on a loaded machine it found none, wake after wake (a CI run grew the WAL to 20 MB in 1,500
appends). So a restart this thread could not make is left to the writer itself: after its next
commit (``note``), between two of its transactions, it owns the write lock for nothing and
starts the WAL over on its own connection — the passive checkpoint already copied nearly every
frame, so this is short, and it waits at most ``RESTART_WAIT_S`` for readers. A reader can keep
that busy too (SQLite then reports busy instead of raising): the writer tries again after its
next commits, ``WRITER_TRIES`` times, before leaving it to the thread's next wake.

A checkpoint that fails (a full disk) changes nothing that was committed — it is in the
WAL — and is tried again at the next wake; the first failure is logged. ``close`` stops the
thread and closes its connection before the store closes its own, and the last of those
closes checkpoints whatever is left and removes the WAL, as before.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
from pathlib import Path

log = logging.getLogger(__name__)

ROWS = 1000
"""Changed rows between two checkpoints (SQLite's automatic threshold is 1,000 pages)."""
FRAMES_LIMIT = 2000
"""A WAL this long (8 MB of 4 KiB pages) has not started over since the last wake: finish the
checkpoint, holding writers back for the frames that are left."""
WRITER_TRIES = 3
"""Commits after which the writer tries to start the WAL over again when a reader kept it busy
(each try may wait ``RESTART_WAIT_S``); then the next wake of the thread decides again."""
RESTART_WAIT_S = 0.1
"""How long the finishing checkpoint waits for a write or a read under way; writers wait for it
meanwhile, so it is short: a long read postpones the restart to the next wake instead."""


class WalCheckpointer:
    """One thread that checkpoints the database's WAL when the writer has written enough."""

    def __init__(self, path: Path) -> None:
        self._path = path
        self._mark = 0
        """The writer's changed-rows count at the last wake (``note`` runs on the writer only)."""
        self._wake = threading.Event()
        self._stopping = False
        self._failed = False
        self.done = 0
        """Checkpoints run (tests)."""
        self.tries = 0
        """Checkpoints tried, failed ones included (tests)."""
        self.restart_due = False
        """This thread could not start the WAL over: the writer does it after its next commit."""
        self._writer_tries = 0
        """Consecutive tries of the writer that a reader kept busy."""
        self.writer_restarts = 0
        """Restarts the writer made (tests)."""
        self._thread = threading.Thread(target=self._work, name="foya-store-checkpoints", daemon=True)
        self._thread.start()

    def note(self, writer: sqlite3.Connection) -> None:
        """After a commit, on the writer's thread with its connection (outside any transaction)."""
        if self.restart_due:
            self.restart_due = False
            self._restart_on(writer)
        changed_rows = writer.total_changes
        if changed_rows - self._mark >= ROWS:
            self._mark = changed_rows
            self._wake.set()

    def _restart_on(self, writer: sqlite3.Connection) -> None:
        """Start the WAL over on the writer's connection, waiting at most ``RESTART_WAIT_S`` (not the
        writer's own 10 s) for a reader; busy or failed, the next wake tries again."""
        (waits,) = writer.execute("PRAGMA busy_timeout").fetchone()
        try:
            writer.execute(f"PRAGMA busy_timeout={int(RESTART_WAIT_S * 1000)}")
            (busy, _frames, _copied) = writer.execute("PRAGMA wal_checkpoint(RESTART)").fetchone()
            if busy:  # a reader still needed the old frames: try again after a later commit
                self._writer_tries += 1
                self.restart_due = self._writer_tries < WRITER_TRIES
            else:
                self._writer_tries = 0
                self.writer_restarts += 1
        except sqlite3.Error as exc:  # committed work is safe in the WAL
            if not self._failed:
                self._failed = True
                log.warning("starting the WAL of %s over failed (will retry): %s", self._path, exc)
        finally:
            writer.execute(f"PRAGMA busy_timeout={int(waits)}")

    def close(self) -> None:
        """Stop the thread (a checkpoint under way finishes first) and close its connection."""
        self._stopping = True
        self._wake.set()
        self._thread.join()

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
                    if con is None:
                        con = sqlite3.connect(self._path, isolation_level=None, check_same_thread=True,
                                              timeout=RESTART_WAIT_S)
                    _busy, frames, _copied = con.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
                    if frames >= FRAMES_LIMIT:  # not started over since: finish, so the next commit does
                        busy, _frames, _copied = con.execute("PRAGMA wal_checkpoint(RESTART)").fetchone()
                        self.restart_due = bool(busy)
                        self._writer_tries = 0
                    self.done += 1
                except (OSError, sqlite3.Error) as exc:
                    if not self._failed:  # the next wake tries again; commits are safe in the WAL
                        self._failed = True
                        log.warning("checkpointing %s failed (will retry): %s", self._path, exc)
        finally:
            if con is not None:
                con.close()
