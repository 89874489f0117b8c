"""Putting the newest backup in place of a damaged database, keeping the damaged file.

A database that fails its check at open is never written to (``store/database.py``); what
the person can do about it is restore a backup. This does it the careful way, for the
window's storage-fault dialog and ``foya restore-backup`` alike:

* the backup is checked first (``PRAGMA quick_check`` on a read-only connection): a damaged
  backup is refused, nothing moves;
* the damaged file and its ``-wal``/``-shm`` companions are *renamed* aside
  (``foya.sqlite3.damaged-YYYYmmdd-HHMMSS``), never deleted, so a later repair with
  ``sqlite3 … .recover`` can still get at what only they hold;
* the backup is copied in through SQLite's backup API (a consistent copy, not a byte copy of
  a file some other program might be writing), to a temporary name first, then renamed.

Only for a process that holds no connection to the database: the app calls it before its
kernel exists.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

from foya_desktop.core.errors import DatabaseCorrupt, InvalidOperation
from foya_desktop.store.faults import newest_backup
from foya_desktop.store.home import Home, create_private

COMPANIONS = ("-wal", "-shm", "-journal")


@dataclass(frozen=True, slots=True)
class Restored:
    """What was done: which backup is now the database, and where the damaged file went."""

    backup: Path
    damaged_copy: Path | None
    """``None`` when there was no database file to move aside."""


def _check(backup: Path) -> None:
    uri = f"file:{backup}?mode=ro&immutable=1"
    try:
        con = sqlite3.connect(uri, uri=True)
        try:
            verdict = con.execute("PRAGMA quick_check").fetchone()
        finally:
            con.close()
    except sqlite3.DatabaseError as exc:
        raise DatabaseCorrupt(f"The backup {backup} is damaged too ({exc}); nothing was changed.") from None
    if not verdict or verdict[0] != "ok":
        raise DatabaseCorrupt(f"The backup {backup} fails its check too; nothing was changed.")


def held_lock_files(home: Home) -> list[Path]:
    """Lock files in ``run/`` that a live process holds (asked of the OS: ``store.leases`` locks
    one per process with ``flock``). The database's own lease rows may be unreadable here."""
    held = []
    for path in sorted(home.run.glob("*.lock")) if home.run.is_dir() else []:
        try:
            fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
        except OSError:
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            held.append(path)
        except OSError:
            continue
        finally:
            os.close(fd)
    return held


def restore_newest_backup(home: Home, backup: Path | None = None) -> Restored:
    """Check ``backup`` (default: the newest in ``backups/``), move the database aside, copy it in.

    Refused while another process uses the data folder: it may hold the file open.
    """
    if held_lock_files(home):
        raise InvalidOperation(f"Another Foya process is using {home.root}; quit it first, then "
                                 "restore the backup.")
    chosen = backup if backup is not None else newest_backup(home)
    if chosen is None or not chosen.is_file():
        raise InvalidOperation(f"There is no backup to restore in {home.backups}.")
    _check(chosen)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    database = home.database
    damaged: Path | None = None
    if database.exists():
        damaged = database.with_name(f"{database.name}.damaged-{stamp}")
        _move(database, damaged)
    partial = database.with_name(f"{database.name}.restoring-{stamp}")
    try:
        create_private(partial)  # the database is 0600 whatever the umask (``store.home``)
        source = sqlite3.connect(f"file:{chosen}?mode=ro", uri=True)
        target = sqlite3.connect(partial)
        try:
            source.backup(target)
        finally:
            target.close()
            source.close()
        partial.rename(database)
    except BaseException:
        with contextlib.suppress(OSError):
            partial.unlink()
        if damaged is not None and not database.exists():
            _move(damaged, database)  # put things back as they were
        raise
    return Restored(chosen, damaged)


def _move(database: Path, to: Path) -> None:
    """Rename a database file with its ``-wal``/``-shm``/``-journal`` companions."""
    database.rename(to)
    for suffix in COMPANIONS:
        companion = database.with_name(database.name + suffix)
        if companion.exists():
            companion.rename(to.with_name(to.name + suffix))
