"""Which process owns which session, across every process on one database.

The window and any number of ``foya`` commands share one SQLite file. Each
process that writes takes a **lease**: a row in ``process_lease`` (id, pid,
the pid's start time, kind "window"/"cli") plus a lock file
``<data dir>/run/<lease id>.lock`` on which it holds an exclusive ``flock``
for its whole lifetime. The OS drops a ``flock`` when its holder dies, even
by SIGKILL, and never hands it to a recycled pid, so "is this lease alive?"
is answered by trying to take that lock — not by trusting the row. Where
the lock file cannot be opened the pid and its start time from ``/proc``
decide (a recycled pid has another start time).

A session being used by a turn or an operation (rewind, delete, compaction,
a sub-agent run) is **claimed**: a ``session_claim`` row naming the lease.
A claim held by a live lease refuses every other process; a claim left by
a dead lease is taken over after that session's leftovers were recovered.
Start-up recovery touches only sessions no live lease claims, and task
records only when the lease that started them is dead.

Every function below except :class:`LeaseFile` runs on the store's writer
thread inside one ``IMMEDIATE`` transaction, so check-then-claim is atomic
across processes.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from dataclasses import dataclass
from pathlib import Path

from foya_desktop.core.errors import SessionBusyElsewhere
from foya_desktop.core.ids import new_id, now_ms
from foya_desktop.store.schema import ClaimRow, LeaseRow

_current: list[str] = []
"""The lease id of this process's store (one store per process: the Peewee binding is global)."""


def current_lease() -> str | None:
    """The lease of the open store in this process (``None`` when read-only or not opened)."""
    return _current[-1] if _current else None


def process_start_time(pid: int) -> int | None:
    """The process's start time in clock ticks since boot (``/proc/<pid>/stat`` field 22)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = stat[stat.rfind(")") + 2:].split()
    try:
        return int(fields[19])
    except (IndexError, ValueError):
        return None


@dataclass
class LeaseFile:
    """This process's lock file, locked for the lifetime of the store."""

    run_dir: Path
    lease_id: str
    fd: int = -1

    @classmethod
    def take(cls, run_dir: Path) -> LeaseFile:
        """Create and lock a fresh lock file (raises ``OSError`` if the folder is not writable)."""
        run_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
        lease = cls(run_dir, new_id("lea"))
        fd = os.open(lease.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        lease.fd = fd
        return lease

    @property
    def path(self) -> Path:
        """``run/<lease id>.lock``."""
        return lock_path(self.run_dir, self.lease_id)

    def release(self) -> None:
        """Unlock and remove the file (clean exit)."""
        if self.fd >= 0:
            with contextlib.suppress(OSError):
                self.path.unlink()
            os.close(self.fd)
            self.fd = -1

    def abandon(self) -> None:
        """Drop the lock but leave file and rows behind, exactly as a killed process would (tests)."""
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1


def lock_path(run_dir: Path, lease_id: str) -> Path:
    """Where a lease's lock file lives."""
    return run_dir / f"{lease_id}.lock"


def lease_alive(run_dir: Path, row: LeaseRow) -> bool:
    """Whether the process holding ``row`` still runs (asked of the OS, not of the row)."""
    path = lock_path(run_dir, row.id)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    except FileNotFoundError:
        return False
    except OSError:
        return process_start_time(row.pid) == row.start_time
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    except OSError:
        return process_start_time(row.pid) == row.start_time
    finally:
        os.close(fd)
    return False


def register(lease: LeaseFile, kind: str) -> None:
    """Record this process's lease (writer thread, in a transaction)."""
    pid = os.getpid()
    LeaseRow.insert(id=lease.lease_id, pid=pid, start_time=process_start_time(pid) or 0, kind=kind,
                    created_at=now_ms()).execute()
    _current.append(lease.lease_id)


def unregister(lease_id: str) -> None:
    """Clean exit: the lease and its claims go."""
    ClaimRow.delete().where(ClaimRow.lease_id == lease_id).execute()
    LeaseRow.delete().where(LeaseRow.id == lease_id).execute()
    if lease_id in _current:
        _current.remove(lease_id)


def forget(lease_id: str) -> None:
    """This process stops using ``lease_id`` without touching the database (failed open)."""
    if lease_id in _current:
        _current.remove(lease_id)


def live_leases(run_dir: Path) -> dict[str, LeaseRow]:
    """Leases whose process is alive; rows (and claims) of dead ones are removed."""
    alive: dict[str, LeaseRow] = {}
    for row in LeaseRow.select():
        if lease_alive(run_dir, row):
            alive[row.id] = row
            continue
        ClaimRow.delete().where(ClaimRow.lease_id == row.id).execute()
        row.delete_instance()
        with contextlib.suppress(OSError):
            lock_path(run_dir, row.id).unlink()
    ClaimRow.delete().where(ClaimRow.lease_id.not_in(list(alive) or [""])).execute()
    return alive


def claimed_elsewhere(run_dir: Path, own: str | None) -> set[str]:
    """Session ids a live process other than ``own`` holds right now."""
    alive = live_leases(run_dir)
    return {c.session_id for c in ClaimRow.select() if c.lease_id in alive and c.lease_id != own}


def owner_place(kind: str, pid: int | str) -> str:
    """Where the process holding a session is, as a second process says it."""
    return f"in the Foya window (pid {pid})" if kind == "window" else f"in another foya process (pid {pid})"


def owner_sentence(row: LeaseRow, what: str) -> str:
    """The sentence a second process shows."""
    return (f"This session is {what} {owner_place(row.kind, row.pid)}. Wait until it has finished "
            "there, or stop it there, then try again.")


def claim(run_dir: Path, lease_id: str, session_id: str, what: str) -> bool:
    """Claim ``session_id`` for this lease; ``True`` when a dead owner's claim was taken over.

    Raises :class:`SessionBusyElsewhere` naming the live owner.
    """
    row = ClaimRow.get_or_none(ClaimRow.session_id == session_id)
    if row is not None and row.lease_id == lease_id:
        ClaimRow.update(what=what).where(ClaimRow.session_id == session_id).execute()
        return False
    taken_over = False
    if row is not None:
        owner = LeaseRow.get_or_none(LeaseRow.id == row.lease_id)
        if owner is not None and lease_alive(run_dir, owner):
            raise SessionBusyElsewhere(owner_sentence(owner, row.what), pid=owner.pid, kind=owner.kind,
                                   what=row.what)
        row.delete_instance()
        taken_over = True
    ClaimRow.insert(session_id=session_id, lease_id=lease_id, what=what, since=now_ms()).execute()
    return taken_over


def check_free(run_dir: Path, own: str | None, session_id: str) -> None:
    """Raise ``SessionBusyElsewhere`` when a live lease other than ``own`` claims the session."""
    row = ClaimRow.get_or_none(ClaimRow.session_id == session_id)
    if row is None or row.lease_id == own:
        return
    owner = LeaseRow.get_or_none(LeaseRow.id == row.lease_id)
    if owner is not None and lease_alive(run_dir, owner):
        raise SessionBusyElsewhere(owner_sentence(owner, row.what), pid=owner.pid, kind=owner.kind,
                                   what=row.what)


def held_by_live_process(run_dir: Path, session_id: str) -> bool:
    """Whether a live process (this one included) claims the session right now (reads only)."""
    row = ClaimRow.get_or_none(ClaimRow.session_id == session_id)
    if row is None:
        return False
    owner = LeaseRow.get_or_none(LeaseRow.id == row.lease_id)
    return owner is not None and lease_alive(run_dir, owner)


def left_by_dead_owners(run_dir: Path, session_ids: list[str]) -> set[str]:
    """Of ``session_ids`` (recorded as busy), those no live process holds: what they record was
    left by a process that died, and stays until a writing process recovers them (reads only)."""
    return {sid for sid in session_ids if not held_by_live_process(run_dir, sid)}


def release(lease_id: str, session_id: str) -> None:
    """Give the session back (idle in this process)."""
    ClaimRow.delete().where((ClaimRow.session_id == session_id) & (ClaimRow.lease_id == lease_id)).execute()
