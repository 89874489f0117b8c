"""When the database is checked in full, and what a failed check means from then on.

SQLite's ``PRAGMA quick_check`` reads every page: 0.6–0.8 s at 50,000 messages, seconds at
500,000, the whole 3.6 GB of a million-message database after a reboot. Run at every open it
made every ``foya`` command and the window's start grow with the database (docs/data.md, "When
storage fails"). So an open does the **cheap check** — the file's header (magic, page size,
size against the page count the header records), the schema readable, the schema version (in
``store/database.py``) — and the **full check** only when it matters:

* **after an unclean shutdown, or a change Foya did not make.** The last writing process to
  close cleanly, with no other writer holding the data folder (``store.leases``' lock files),
  records the identity of the file it leaves — device, inode, size and modification time of
  the database, size and modification time of its ``-wal`` — in ``foya.sqlite3.verified``, as does every
  full check that passes. An open that finds the file as recorded skips the full check; one
  that finds anything else (a process or the machine died mid-write, another program wrote
  the file, a backup was copied in) checks in full. A writer that holds the folder now
  vouches for the file: it was checked, or found as recorded, when it opened, and SQLite
  itself keeps a file consistent across a killed process (it is power loss and foreign
  writes that damage it).
* **before a migration**, which rewrites tables: a damaged file is refused before, not after.
* **in the background after the window starts**, on a read-only connection of its own, when
  the last full check is older than :data:`CHECK_EVERY_MS`, and again on that schedule while
  the window runs (``app.py``).
* **on demand**: ``foya doctor``.

A failed check is **kept**: ``foya.sqlite3.failed`` names the file (device and inode) and what
SQLite said; every later open of that same file is refused with the corrupt sentence
(``store/faults.py``) without checking again, and in the process that found it every write is
refused from then on (:func:`refuse_writes`, asked by ``database.write_transaction``). Only a
different file at the path (a restored backup, a repaired copy moved in) or a ``foya doctor``
that finds it sound again lifts it. Nothing is written to a file that failed a check — with
one gap: another process that already had it open when the check failed (a ``foya run`` beside
the window) learns of it only at its next open, as it would not have known before either.

Why the marker files sit beside the database and not in it: a database that cannot be trusted
cannot be asked whether it can be trusted, and a read-only open must be able to tell without
writing the file. Where the data folder is read-only no marker can be written: every open
there checks in full (slow, but never wrong).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import sqlite3
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

from foya_desktop.core.errors import DatabaseCorrupt, FoyaError
from foya_desktop.core.ids import now_ms
from foya_desktop.store.faults import corrupt_advice, storage_errors, translate
from foya_desktop.store.home import Home, create_private
from foya_desktop.store.restore import held_lock_files

log = logging.getLogger(__name__)

CHECK_EVERY_MS = 24 * 3600 * 1000
"""How old the last full check may be before the window checks again in the background."""

_MAGIC = b"SQLite format 3\x00"


@dataclass(frozen=True, slots=True)
class Identity:
    """What tells one state of the database file from another without reading it."""

    dev: int
    ino: int
    size: int
    mtime_ns: int
    wal: tuple[int, int] | None
    """The ``-wal`` file's size and modification time (``None``: there is none, or it is empty — a
    read-only open creates an empty one, and an empty log holds nothing). Not the change
    times: SQLite run as root gives the ``-wal`` its database's owner at every open, which
    changes them without a byte written."""


def identity(database: Path) -> Identity | None:
    """The file's identity now (``None``: there is no file)."""
    try:
        st = os.stat(database)
    except OSError:
        return None
    try:
        w = os.stat(database.with_name(database.name + "-wal"))
        wal: tuple[int, int] | None = (w.st_size, w.st_mtime_ns) if w.st_size else None
    except OSError:
        wal = None
    return Identity(st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, wal)


def verified_path(database: Path) -> Path:
    """The record of the last file state known sound."""
    return database.with_name(database.name + ".verified")


def failed_path(database: Path) -> Path:
    """The record of a failed full check."""
    return database.with_name(database.name + ".failed")


def _read(path: Path) -> dict[str, object]:
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _write(path: Path, data: dict[str, object]) -> None:
    """Replace ``path`` whole (a reader never sees half a record); quietly nothing where the
    folder is read-only (the next open then checks in full again)."""
    partial = path.with_name(f".{path.name}.{os.getpid()}")
    try:
        create_private(partial)
        partial.write_text(json.dumps(data))
        os.replace(partial, path)
    except OSError:
        with contextlib.suppress(OSError):
            partial.unlink()


def _same(recorded: object, now: Identity | None) -> bool:
    if now is None or not isinstance(recorded, dict):
        return False
    wal = recorded.get("wal")
    return {**recorded, "wal": tuple(wal) if isinstance(wal, list) else wal} == asdict(now)


def last_checked_ms(database: Path) -> int:
    """When the file last passed a full check (0: never, or no record)."""
    value = _read(verified_path(database)).get("checked_at", 0)
    return value if isinstance(value, int) else 0


def record_sound(database: Path, seen: Identity | None, *, checked: bool) -> None:
    """Record ``seen`` (taken *before* the check or the close, so a write meanwhile makes it stale
    and the next open checks) as sound; ``checked``: a full check passed just now."""
    if seen is None:
        return
    checked_at = now_ms() if checked else last_checked_ms(database)
    _write(verified_path(database), {"identity": asdict(seen), "checked_at": checked_at})


def _failure(database: Path, now: Identity | None) -> str | None:
    """What SQLite said when this very file (device and inode) failed its check, else ``None``."""
    data = _read(failed_path(database))
    if now is None or data.get("dev") != now.dev or data.get("ino") != now.ino:
        return None
    return str(data.get("detail", "damaged"))


def failed_sentence(home: Home, detail: str) -> str:
    """The corrupt sentence (``store/faults.py``) for a file that failed its full check."""
    return corrupt_advice(home, f"fails SQLite's consistency check ({detail})")


def kept_failure(home: Home, database: Path) -> DatabaseCorrupt | None:
    """The refusal for a file that failed a check before (kept: see the module docstring)."""
    detail = _failure(database, identity(database))
    return None if detail is None else DatabaseCorrupt(failed_sentence(home, detail))


def header_fault(database: Path) -> str | None:
    """What is wrong with the file's header, as the end of the corrupt sentence, or ``None``.

    Read from the first 100 bytes and the file's size: the magic string, a page size SQLite can
    have, a size of whole pages and not smaller than the page count the header records (when
    that count is current: SQLite says so by the two change counters agreeing).

    NOTE: the size is compared only when the ``-wal`` is empty or gone. A checkpoint the disk ran
    out of room under writes page 1 (the new count) and fails to grow the file; the log still holds
    every page and the next checkpoint completes it — a sound database, which must still open.
    """
    with open(database, "rb") as f:
        head = f.read(100)
        size = os.fstat(f.fileno()).st_size
    if len(head) < 100 or head[:16] != _MAGIC:
        return "is not an SQLite database (its header is missing or damaged)"
    raw = int.from_bytes(head[16:18], "big")
    page = 65536 if raw == 1 else raw
    if page < 512 or page & (page - 1):
        return f"has a damaged header (page size {raw})"
    now = identity(database)
    if now is not None and now.wal is not None:
        return None
    if size % page:
        return "is cut short (its size is not a whole number of pages)"
    pages = int.from_bytes(head[28:32], "big")
    if head[24:28] == head[92:96] and pages * page > size:
        return f"is cut short ({size:,} bytes where its header records {pages * page:,})"
    return None


def why_check(home: Home, database: Path) -> str | None:
    """Why this open must run the full check, or ``None`` when the cheap one is enough."""
    if held_lock_files(home):
        return None  # a live writer opened it after checking or finding it as recorded
    recorded = _read(verified_path(database)).get("identity")
    if recorded is None:
        return "no record of a clean close"
    if not _same(recorded, identity(database)):
        return "changed since Foya last closed it cleanly (an unclean shutdown, or another program)"
    return None


def quick_check(con: sqlite3.Connection) -> str | None:
    """SQLite's ``quick_check`` on ``con``: ``None`` when sound, else its first finding."""
    rows = con.execute("PRAGMA quick_check").fetchall()
    if [tuple(r) for r in rows] == [("ok",)]:
        return None
    detail = next((str(r[0]) for r in rows if not str(r[0]).startswith("***")), "damaged")
    return " ".join(detail.split())[:120]


def check_in_full(home: Home, database: Path, con: sqlite3.Connection, why: str) -> None:
    """The full check on ``con`` (read-only); a failure is recorded and raised, success recorded."""
    seen = identity(database)
    started = time.monotonic()
    try:
        detail = quick_check(con)
    except sqlite3.DatabaseError as exc:  # "malformed" before a row: damaged too (a lock is not)
        if not isinstance(translate(exc, home), DatabaseCorrupt):
            raise
        detail = " ".join(str(exc).split())[:120]
    log.info("full consistency check of %s (%s): %s in %.2f s", database, why,
             "sound" if detail is None else f"FAILED ({detail})", time.monotonic() - started)
    if detail is not None:
        record_failure(database, seen, detail)
        error = DatabaseCorrupt(failed_sentence(home, detail))
        refuse_writes(database, error)
        raise error
    if database == home.database:  # not a backup looked at by path
        record_sound(database, seen, checked=True)
        with contextlib.suppress(OSError):
            failed_path(database).unlink()


def record_failure(database: Path, seen: Identity | None, detail: str) -> None:
    """Keep the failure: later opens of this file refuse it without checking again."""
    if seen is not None:
        _write(failed_path(database), {"dev": seen.dev, "ino": seen.ino, "detail": detail, "at": now_ms()})
    with contextlib.suppress(OSError):
        verified_path(database).unlink()


@dataclass(frozen=True, slots=True)
class Verdict:
    """What a full check on demand found."""

    sound: bool
    detail: str
    seconds: float
    size: int


def verify(home: Home) -> Verdict:
    """The full check on a read-only connection of its own (``foya doctor``, the window's
    background check); records the result either way. Raises the store's plain-words errors for
    a file that cannot be opened at all; a damaged file is a verdict, not an exception — and in
    this process writes are refused from then on."""
    database = home.database
    started = time.monotonic()
    with storage_errors(home):
        fault = header_fault(database)
        size = os.stat(database).st_size
        if fault is not None:
            record_failure(database, identity(database), fault)
        else:
            con = sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=10)
            try:
                check_in_full(home, database, con, "asked for")
            except DatabaseCorrupt as exc:
                fault = str(exc)
            finally:
                con.close()
    if fault is None:
        return Verdict(True, "", time.monotonic() - started, size)
    error = kept_failure(home, database) or DatabaseCorrupt(failed_sentence(home, fault))
    refuse_writes(database, error)
    return Verdict(False, str(error), time.monotonic() - started, size)


_refusals: dict[str, DatabaseCorrupt] = {}
"""Database paths a check in this process found damaged: every write transaction on them raises."""


def refuse_writes(database: Path, error: DatabaseCorrupt) -> None:
    """From now on this process writes nothing to ``database`` (see the module docstring)."""
    _refusals.setdefault(str(database), error)


def refusal(database: str | Path) -> DatabaseCorrupt | None:
    """The reason writes to ``database`` are refused in this process, or ``None``."""
    return _refusals.get(str(database)) if _refusals else None


def closed_cleanly(home: Home) -> None:
    """After this process closed its last connection: record the file as it is left — when no
    other writer holds the data folder (its own close records it) and no check failed here."""
    database = home.database
    seen = identity(database)  # before looking for other writers: one starting now makes it stale
    if refusal(database) is not None or seen is None or held_lock_files(home):
        return
    if _failure(database, seen) is None:
        record_sound(database, seen, checked=False)


LOOK_EVERY_S = 3600.0
"""How often a running window asks whether the background check is due again."""


async def watch(home: Home, damaged: Callable[[DatabaseCorrupt], object], *, first_after_s: float,
                every_s: float = LOOK_EVERY_S) -> None:
    """The window's background check: after ``first_after_s``, and every ``every_s`` from then on,
    the full check when :func:`check_due`, on a worker thread with a read-only connection of its
    own (SQLite releases the GIL while it reads; a WAL reader blocks no writer). ``damaged(error)``
    is called once with the corrupt error when it fails; writes were refused by then."""
    await asyncio.sleep(first_after_s)
    while True:
        if check_due(home):
            try:
                verdict = await asyncio.to_thread(verify, home)
            except (FoyaError, OSError):  # locked meanwhile, say: the next look tries again
                log.warning("the background consistency check could not run", exc_info=True)
            else:
                if not verdict.sound:
                    damaged(DatabaseCorrupt(verdict.detail))
                    return
        await asyncio.sleep(every_s)


def check_due(home: Home) -> bool:
    """Whether the background check should run now (the last full check is older than
    :data:`CHECK_EVERY_MS`, or there is none)."""
    return now_ms() - last_checked_ms(home.database) >= CHECK_EVERY_MS
