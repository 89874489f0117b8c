"""Storage and environment faults, as one plain sentence each.

SQLite and the OS report a full disk, a read-only folder, a damaged file or
a lock held too long in many shapes (``sqlite3.OperationalError`` text,
Peewee's wrappers, ``OSError`` errno). This module is the one place that
turns them into the :class:`~foya_desktop.core.errors.StorageError` family,
whose message says what is wrong and what to do, and whose ``exit_code``
the ``foya`` command exits with.
"""

from __future__ import annotations

import errno
import os
import sqlite3
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import peewee as pw

from foya_desktop.core.errors import (
    DatabaseCorrupt,
    DatabaseLocked,
    DiskFull,
    StorageError,
    StorageReadOnly,
    WrongFileType,
)
from foya_desktop.store.home import Home

_FULL = ("database or disk is full", "disk i/o error", "file too large")
_READ_ONLY = ("attempt to write a readonly database", "readonly database", "unable to open database file",
              "read-only file system", "permission denied")
_CORRUPT = ("file is not a database", "database disk image is malformed", "malformed",
            "file is encrypted")


def newest_backup(home: Home) -> Path | None:
    """The most recent copy in ``backups/`` (what a person can restore)."""
    try:
        found = sorted(home.backups.glob("*.sqlite3"), key=lambda p: p.stat().st_mtime)
    except OSError:
        return None
    return found[-1] if found else None


def corrupt_advice(home: Home, what: str) -> str:
    """The sentence for a damaged database: never written; restore a backup or repair a copy."""
    backup = newest_backup(home)
    restore = (f"restore the newest backup ({backup}) with `foya restore-backup` (the damaged file is "
               "kept beside it)" if backup is not None else "restore it from your own backup")
    return (f"The database {home.database} {what}. Foya did not write to it. Quit Foya, then "
            f"{restore}, or repair a copy: sqlite3 {home.database} .recover | sqlite3 repaired.sqlite3 "
            "(and move repaired.sqlite3 into its place).")


_SPECIAL = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a named pipe"), (stat.S_ISSOCK, "a socket"),
            (stat.S_ISCHR, "a device"), (stat.S_ISBLK, "a device"))


def wrong_file_type(home: Home) -> WrongFileType | None:
    """The fault when something of another kind is where Foya's data belongs, else ``None``.

    SQLite and the OS name it by what then fails: a folder at the database's path is a "disk
    I/O error" (which reads as a full disk), a file where the data folder belongs a "file
    exists", a pipe a 0-byte file. Looked at first, so the sentence says what is really there.
    """
    for place in (home.root, *home.root.parents):
        try:
            mode = os.stat(place).st_mode
        except FileNotFoundError:
            continue  # made when Foya creates its data folder
        except OSError:  # a file above it (ENOTDIR), or no permission: the place above says
            continue
        if stat.S_ISDIR(mode):
            break
        where = (f"The data folder {place} is a file" if place == home.root else
                 f"Foya keeps its data in the folder {home.root}, but {place} above it is a file")
        return WrongFileType(f"{where}, not a folder. Foya did not change it: move it away, or point "
                             "FOYA_HOME at another folder.")
    try:
        mode = os.stat(home.database).st_mode
    except OSError:
        return None
    kind = next((name for test, name in _SPECIAL if test(mode)), None)
    if kind is None:
        return None
    return WrongFileType(f"The database path {home.database} is {kind}, not a file, so Foya cannot open "
                         "its database there. Foya did not change it: move it away (Foya then starts a "
                         "new database), or point FOYA_HOME at another folder.")


def translate(exc: BaseException, home: Home) -> StorageError | None:
    """The plain-words storage error for ``exc`` (or the error it happened while handling: a
    full disk makes SQLite roll back by itself, and Peewee's own ROLLBACK then fails with
    "no transaction is active"), or ``None`` if it is not a storage fault.

    Something of the wrong kind where the data belongs (:func:`wrong_file_type`) is said first,
    whatever the error it caused was called."""
    if isinstance(exc, (OSError, sqlite3.Error, pw.PeeweeException)):
        wrong = wrong_file_type(home)
        if wrong is not None:
            return wrong
    seen: BaseException | None = exc
    for _ in range(4):
        if seen is None:
            break
        plain = _translate_one(seen, home)
        if plain is not None:
            return plain
        seen = seen.__cause__ or seen.__context__
    return None


def _translate_one(exc: BaseException, home: Home) -> StorageError | None:
    if isinstance(exc, StorageError):
        return exc
    if isinstance(exc, OSError):
        code = exc.errno
        where = exc.filename or home.root
        if code in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG):
            return DiskFull(f"The disk holding {where} is full (or a file size limit was reached). "
                            "Free some space and try again; nothing was lost.")
        if code in (errno.EROFS, errno.EACCES, errno.EPERM):
            return StorageReadOnly(f"Foya cannot write to {where} (read-only or no permission). Make the "
                                   f"data folder {home.root} writable, or point FOYA_HOME elsewhere.")
        return None
    if not isinstance(exc, (sqlite3.Error, pw.PeeweeException)):
        return None
    text = str(exc).lower()
    if "locked" in text or "busy" in text:
        return DatabaseLocked(f"The database {home.database} is locked by another program and stayed "
                              "locked longer than Foya waits (10 s). Close the program holding it (a "
                              "database browser, a backup tool) and try again.")
    if any(k in text for k in _FULL):
        return DiskFull(f"The disk holding {home.database} is full (or a file size limit was reached). "
                        "Free some space and try again; what was saved before is intact.")
    if any(k in text for k in _READ_ONLY):
        return StorageReadOnly(f"Foya cannot write to the database {home.database} (the file or the "
                               f"folder {home.root} is read-only or not yours). Make it writable, or point "
                               "FOYA_HOME elsewhere.")
    if any(k in text for k in _CORRUPT):
        return DatabaseCorrupt(corrupt_advice(home, "is damaged"))
    return None


@contextmanager
def storage_errors(home: Home) -> Iterator[None]:
    """Re-raise storage faults inside the block as their plain-words ``StorageError``."""
    try:
        yield
    except (OSError, sqlite3.Error, pw.PeeweeException) as exc:
        plain = translate(exc, home)
        if plain is None:
            raise
        raise plain from exc
