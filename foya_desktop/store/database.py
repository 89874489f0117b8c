"""Opening the SQLite database: checks first, then pragmas and migrations.

WAL lets the GUI read while the writer thread commits; ``IMMEDIATE`` write
transactions take the write lock up front so two writers never deadlock on
a lock upgrade; ``busy_timeout`` makes a second process wait instead of fail.

Before anything is written the file is checked read-only: an empty file, a
file that is not a database (its header), one that failed a full check before,
one failing ``quick_check`` when this open needs it (after an unclean
shutdown or before a migration: ``store/integrity.py`` says when and why not
at every open) or one carrying a schema version Foya never wrote is refused
with a sentence (and never "repaired" by writing to it). A migration is
preceded by one backup per schema version — a failing upgrade retried at
every start does not pile up copies.
"""

from __future__ import annotations

import contextlib
import logging
import os
import sqlite3
from collections.abc import Callable
from pathlib import Path

import peewee as pw

from foya_desktop.core.errors import (
    DatabaseCorrupt,
    SchemaInvalid,
    SchemaTooNew,
    StorageReadOnly,
    UpgradeFailed,
)
from foya_desktop.core.ids import now_ms
from foya_desktop.store import indexes, integrity, search
from foya_desktop.store.faults import corrupt_advice, storage_errors, translate, wrong_file_type
from foya_desktop.store.home import Home, create_private, private_folder, tighten
from foya_desktop.store.schema import MIGRATIONS, SCHEMA_VERSION, TABLES, MetaRow, database_proxy

log = logging.getLogger(__name__)

PRAGMAS = {
    "journal_mode": "wal",
    "foreign_keys": 1,
    "busy_timeout": 10_000,
    "synchronous": "normal",
}
READ_PRAGMAS = {"foreign_keys": 1, "busy_timeout": 10_000, "query_only": 1}

def write_transaction[T](db: pw.SqliteDatabase, call: Callable[[], T]) -> T:
    """``call()`` in one transaction on this thread's connection (every store write): ``BEGIN IMMEDIATE``
    (the database's lock type; a read-only open's is a plain ``BEGIN``).

    What ``with db.atomic():`` does at the outermost level, in fewer steps: peewee builds a cursor
    and a context object per ``BEGIN`` and ``COMMIT``, which for one appended message cost about as
    much as a statement (issue 14: append vs raw ``sqlite3``). Peewee's transaction stack still holds
    a transaction while ``call`` runs, so an ``atomic()`` inside it is a savepoint, as before. On an
    error the transaction is rolled back — unless SQLite already did (a full disk), so the error
    that reaches the caller is the real one, not "no transaction is active".
    """
    if db.in_transaction():  # already inside one (not a store write's own path): nest as peewee does
        with db.atomic():
            return call()
    con = db.connection()  # type: ignore[no-untyped-call]
    refused = integrity.refusal(db.database)
    if refused is not None:  # a check failed in this process: nothing more is written, not even
        con.setconfig(sqlite3.SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, True)  # close's WAL checkpoint
        raise refused
    # the lock type peewee's own ``begin`` uses: IMMEDIATE, or none (deferred) for a read-only open
    lock = db._lock_type  # type: ignore[attr-defined]
    con.execute(f"BEGIN {lock}" if lock else "BEGIN")
    db.push_transaction(db.transaction())
    try:
        result = call()
    except BaseException:
        db.pop_transaction()  # type: ignore[no-untyped-call]
        _rollback(con)
        raise
    db.pop_transaction()  # type: ignore[no-untyped-call]
    try:
        con.execute("COMMIT")
    except BaseException:
        _rollback(con)
        raise
    return result


def _rollback(con: sqlite3.Connection) -> None:
    if con.in_transaction:
        con.execute("ROLLBACK")


def _ro_uri(path: Path, *, immutable: bool = False) -> str:
    return f"file:{path}?mode=ro" + ("&immutable=1" if immutable else "")


def _connect_ro(path: Path) -> sqlite3.Connection:
    """A read-only connection; ``immutable`` when the folder cannot hold WAL's shared-memory file."""
    con = sqlite3.connect(_ro_uri(path), uri=True, timeout=10)
    try:
        con.execute("SELECT count(*) FROM sqlite_master").fetchone()
        return con
    except sqlite3.OperationalError as exc:
        con.close()
        if "unable to open" not in str(exc) and "readonly" not in str(exc):
            raise
    return sqlite3.connect(_ro_uri(path, immutable=True), uri=True, timeout=10)


def _home_of(path: Path) -> Home:
    return Home(path.parent)


def stored_version(path: Path, *, full: bool = False) -> int | None:
    """The schema version recorded in an existing database file (``None`` if new).

    Raises ``DatabaseCorrupt`` for an empty or damaged file (and for one that failed a full check
    before) and ``SchemaInvalid`` for a version that is not a positive whole number. The full
    check runs when ``full`` or when ``store/integrity.py`` says this open needs it.
    """
    return _inspect(path, full=full)[0]


def _inspect(path: Path, *, full: bool) -> tuple[int | None, bool]:
    """:func:`stored_version`, and whether the full check ran."""
    if not path.exists():
        return None, False
    home = _home_of(path)
    wrong = wrong_file_type(home)
    if wrong is not None:  # a folder there reads as a full disk, a pipe as an empty file
        raise wrong
    with storage_errors(home):
        if path.stat().st_size == 0:
            raise DatabaseCorrupt(corrupt_advice(home, "is empty (0 bytes; it may have been cut short)"))
        kept = integrity.kept_failure(home, path)
        if kept is not None:
            raise kept
        fault = integrity.header_fault(path)
        if fault is not None:
            raise DatabaseCorrupt(corrupt_advice(home, fault))
        why = "asked for" if full else integrity.why_check(home, path)
        con = _connect_ro(path)
        try:
            if why is not None:
                integrity.check_in_full(home, path, con, why)
            has_meta = con.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name='meta_row'"
                                   ).fetchone()
            if not has_meta:
                tables = con.execute("SELECT count(*) FROM sqlite_master WHERE type='table'").fetchone()[0]
                if tables:
                    raise DatabaseCorrupt(corrupt_advice(home, "is an SQLite file but not a Foya database"))
                return None, why is not None
            row = con.execute("SELECT value FROM meta_row WHERE key='schema_version'").fetchone()
        finally:
            con.close()
    if row is None:
        raise SchemaInvalid(f"The database {path} records no schema version, so Foya cannot tell how to "
                            "read it; it was not modified. Restore a backup, or move the file away to "
                            "start with a new database.")
    text = str(row[0]).strip()
    if not text.isdigit() or int(text) < 1:
        raise SchemaInvalid(f"The database {path} records the schema version {row[0]!r}, which no Foya "
                            "ever wrote; it was not modified. Restore a backup (in "
                            f"{home.backups}), or move the file away to start with a new database.")
    return int(text), why is not None


def open_database(path: Path, backups: Path) -> pw.SqliteDatabase:
    """Open (creating or migrating) the database and bind the models to it.

    Raises :class:`SchemaTooNew` when the file was written by a newer Foya:
    we refuse to open it read-write rather than risk corrupting it.
    """
    version, checked = _inspect(path, full=False)
    if version is not None and version > SCHEMA_VERSION:
        raise SchemaTooNew(
            f"The database {path} was written by a newer version of Foya (schema {version}; "
            f"this version knows schema {SCHEMA_VERSION}). Update Foya to open it; "
            "it was not modified.")
    if version is not None and version < SCHEMA_VERSION and not checked:
        stored_version(path, full=True)  # a migration rewrites tables: a damaged file is refused first
    home = _home_of(path)
    with storage_errors(home):
        if version is None and not path.exists():
            _create(path)
            version = stored_version(path)
        for own in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
            tighten(own)  # made by an older Foya under a lax umask (``home``: private whatever the umask)
        if version is not None and version < SCHEMA_VERSION:
            _backup(path, backups, version)
        db = pw.SqliteDatabase(str(path), pragmas=PRAGMAS, lock_type="IMMEDIATE")
        database_proxy.initialize(db)
        try:
            db.connect(reuse_if_open=True)
            with db.atomic():
                _install(db, version)
                search.catch_up()  # what a process that stopped left queued (``store/search.py``)
        except Exception as exc:
            db.close()
            plain = translate(exc, home)
            if plain is not None:
                raise plain from exc
            if version is not None and version < SCHEMA_VERSION:
                # SQLite's words go to the log, for a report; the person gets what happened and what to do
                log.error("upgrading %s from schema %s failed", path, version, exc_info=exc)
                raise UpgradeFailed(f"The database {path} could not be upgraded from schema {version} "
                                   f"to {SCHEMA_VERSION}; it was not changed, and a copy from before the "
                                   f"upgrade is in {backups}. The Foya version that wrote it still opens it; "
                                   f"please report this with the log ({home.logs / 'foya.log'}).") from exc
            raise
    return db


def _create(path: Path) -> None:
    """Make a new database under a temporary name and link it into place whole.

    NOTE: SQLite creates the file empty at ``connect`` and writes its first page only at the
    first commit; a second process (``foya run`` while the window starts) that looked in
    between saw 0 bytes and refused the file as cut short. A link never replaces a file: when
    another process made the database first, its file is kept and this one is dropped.
    """
    partial = path.with_name(f".{path.name}.{os.getpid()}.creating")
    try:
        create_private(partial)  # 0600 whatever the umask; the link keeps it, -wal/-shm copy it
        _build(partial)
        try:
            os.link(partial, path)
        except FileExistsError:
            pass
        except OSError:  # a file system without hard links (FAT, some network shares)
            if not path.exists():
                os.replace(partial, path)
    except (OSError, sqlite3.Error, pw.PeeweeException) as exc:
        plain = translate(exc, _home_of(path))
        if isinstance(plain, StorageReadOnly):  # not "reading commands still work": there is nothing to read
            raise StorageReadOnly(f"Foya cannot create its database in {path.parent} (the folder is "
                                  "read-only or not yours). Make it writable, or point FOYA_HOME "
                                  "elsewhere.") from exc
        raise
    finally:
        for leftover in (partial, partial.with_name(partial.name + "-wal"),
                         partial.with_name(partial.name + "-shm")):
            with contextlib.suppress(OSError):  # a read-only folder refuses even a missing file's unlink
                leftover.unlink(missing_ok=True)


def _build(partial: Path) -> None:
    """The new database's schema, in the file ``partial`` (see :func:`_create`)."""
    # NOTE: built with a rollback journal, WAL switched on at the end: a commit then writes the
    # file itself or fails. Built in WAL, the schema would reach the file only at the checkpoint
    # ``close`` makes, which fails silently on a full disk; the link would give a broken file.
    db = pw.SqliteDatabase(str(partial), pragmas={**PRAGMAS, "journal_mode": "delete"},
                           lock_type="IMMEDIATE")
    database_proxy.initialize(db)
    try:
        db.connect()
        with db.atomic():
            _install(db, None)
        db.execute_sql("PRAGMA journal_mode=wal")  # type: ignore[no-untyped-call]  # kept in the header
    finally:
        db.close()


def open_database_readonly(path: Path) -> pw.SqliteDatabase:
    """Bind the models to a read-only connection: no lease, no migration, no write lock.

    Falls back to :func:`open_database` when there is nothing to read yet or
    the file needs an upgrade (only a writing open may migrate).
    """
    version = stored_version(path)
    if version is None or version < SCHEMA_VERSION:
        return open_database(path, path.parent / "backups")
    if version > SCHEMA_VERSION:
        raise SchemaTooNew(f"The database {path} was written by a newer version of Foya (schema {version};"
                           f" this version knows schema {SCHEMA_VERSION}). Update Foya to open it.")
    with storage_errors(_home_of(path)):
        _connect_ro(path).close()
        immutable = not _wal_possible(path)
        db = pw.SqliteDatabase(_ro_uri(path, immutable=immutable), uri=True, pragmas=READ_PRAGMAS)
        database_proxy.initialize(db)
        db.connect(reuse_if_open=True)
    return db


def _wal_possible(path: Path) -> bool:
    con = sqlite3.connect(_ro_uri(path), uri=True, timeout=10)
    try:
        con.execute("SELECT count(*) FROM sqlite_master").fetchone()
        return True
    except sqlite3.OperationalError:
        return False
    finally:
        con.close()


def _backup(path: Path, backups: Path, version: int) -> None:
    """Copy the database before upgrading from ``version`` — once: a failing upgrade retried at
    every start keeps the first copy instead of adding another."""
    if any(backups.glob(f"foya-schema{version}-*.sqlite3")):
        return
    private_folder(backups)
    target = backups / f"foya-schema{version}-{now_ms()}.sqlite3"
    partial = target.with_suffix(".partial")
    create_private(partial)  # a copy of every conversation: 0600, as the database
    src = sqlite3.connect(_ro_uri(path), uri=True)
    dst = sqlite3.connect(str(partial))
    try:
        src.backup(dst)
    finally:
        dst.close()
        src.close()
    partial.replace(target)


def _install(db: pw.SqliteDatabase, version: int | None) -> None:
    """Tables, search index and indexes that are missing, then the migrations from ``version``
    (``None``: a new database); one place for a new file and an existing one."""
    db.create_tables(TABLES, safe=True)
    search.install(db)
    indexes.install(db)
    _migrate(db, version)


def _migrate(db: pw.SqliteDatabase, version: int | None) -> None:
    current = SCHEMA_VERSION if version is None else version
    while current < SCHEMA_VERSION:
        MIGRATIONS[current](db)
        current += 1
    MetaRow.insert(key="schema_version", value=str(SCHEMA_VERSION)).on_conflict_replace().execute()
