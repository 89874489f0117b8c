"""Opening the SQLite database: pragmas, schema version check, migrations.

WAL lets the GUI read while the writer thread commits; ``IMMEDIATE`` write
transactions take the write lock up front so two writers never deadlock on
a lock upgrade; ``busy_timeout`` makes a second process wait instead of fail.
"""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import peewee as pw

from foya_desktop.core.errors import SchemaTooNew
from foya_desktop.core.ids import now_ms
from foya_desktop.store import search
from foya_desktop.store.schema import MIGRATIONS, SCHEMA_VERSION, TABLES, MetaRow, database_proxy

PRAGMAS = {
    "journal_mode": "wal",
    "foreign_keys": 1,
    "busy_timeout": 10_000,
    "synchronous": "normal",
}


def stored_version(path: Path) -> int | None:
    """The schema version recorded in an existing database file (``None`` if new)."""
    if not path.exists():
        return None
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        row = con.execute("SELECT value FROM meta_row WHERE key='schema_version'").fetchone()
    except sqlite3.OperationalError:
        return None
    finally:
        con.close()
    return int(row[0]) if row else None


def open_database(path: Path, backups: Path) -> pw.SqliteDatabase:
    """Open (creating or migrating) the database and bind the models to it.

    Raises :class:`SchemaTooNew` when the file was written by a newer Foya:
    we refuse to open it read-write rather than risk corrupting it.
    """
    version = stored_version(path)
    if version is not None and version > SCHEMA_VERSION:
        raise SchemaTooNew(
            f"The database {path} was written by a newer version of Foya (schema {version}; "
            f"this version knows schema {SCHEMA_VERSION}). Update Foya to open it; "
            "it was not modified.")
    if version is not None and version < SCHEMA_VERSION:
        _backup(path, backups, version)
    db = pw.SqliteDatabase(str(path), pragmas=PRAGMAS, lock_type="IMMEDIATE")
    database_proxy.initialize(db)
    db.connect(reuse_if_open=True)
    with db.atomic():
        db.create_tables(TABLES, safe=True)
        search.install(db)
        _migrate(db, version)
    return db


def _backup(path: Path, backups: Path, version: int) -> None:
    backups.mkdir(parents=True, exist_ok=True)
    target = backups / f"foya-schema{version}-{now_ms()}.sqlite3"
    src = sqlite3.connect(str(path))
    dst = sqlite3.connect(str(target))
    try:
        src.backup(dst)
    finally:
        dst.close()
        src.close()
    shutil.copymode(path, target)


def _migrate(db: pw.SqliteDatabase, version: int | None) -> None:
    current = SCHEMA_VERSION if version is None else version
    while current < SCHEMA_VERSION:
        MIGRATIONS[current](db)
        current += 1
    MetaRow.insert(key="schema_version", value=str(SCHEMA_VERSION)).on_conflict_replace().execute()
