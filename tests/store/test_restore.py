"""Restoring a backup in place of a damaged database (``store/restore.py``), on real SQLite files,
and through the real ``foya restore-backup`` (issue 14: the person is offered the newest backup;
a damaged database is never written to and never deleted)."""

from __future__ import annotations

import os
import shutil
import sqlite3
import time
from pathlib import Path

import pytest

from foya_desktop.core.errors import DatabaseCorrupt, InvalidOperation
from foya_desktop.store.home import Home
from foya_desktop.store.leases import LeaseFile
from foya_desktop.store.restore import restore_newest_backup
from tests.cli.test_cli import foya


def _database(path: Path, title: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE session_row (title TEXT)")
    con.execute("INSERT INTO session_row VALUES (?)", (title,))
    con.commit()
    con.close()


def _titles(path: Path) -> list[str]:
    con = sqlite3.connect(path)
    try:
        return [r[0] for r in con.execute("SELECT title FROM session_row")]
    finally:
        con.close()


@pytest.fixture
def home(tmp_path: Path) -> Home:
    home = Home(tmp_path / "data")
    _database(home.backups / "foya-schema5-old.sqlite3", "older backup")
    _database(home.backups / "foya-schema6-new.sqlite3", "newest backup")
    old = time.time() - 3600
    os.utime(home.backups / "foya-schema5-old.sqlite3", (old, old))
    home.database.write_bytes(b"this is not sqlite" + b"\0" * 4000)
    (home.root / "foya.sqlite3-wal").write_bytes(b"wal bytes only the damaged file had")
    return home


def test_the_newest_backup_goes_in_and_the_damaged_file_and_its_wal_are_kept(home: Home) -> None:
    damaged = home.database.read_bytes()
    restored = restore_newest_backup(home)
    assert restored.backup.name == "foya-schema6-new.sqlite3"
    assert _titles(home.database) == ["newest backup"]
    assert restored.damaged_copy is not None and restored.damaged_copy.read_bytes() == damaged
    wal = restored.damaged_copy.with_name(restored.damaged_copy.name + "-wal")
    assert wal.read_bytes() == b"wal bytes only the damaged file had"
    assert not (home.root / "foya.sqlite3-wal").exists()  # it belonged to the damaged file
    assert sorted(p.name for p in home.backups.iterdir()) == ["foya-schema5-old.sqlite3",
                                                              "foya-schema6-new.sqlite3"]


def test_a_damaged_backup_is_refused_and_nothing_moves(home: Home) -> None:
    bad = home.backups / "foya-schema6-new.sqlite3"
    bad.write_bytes(b"garbage" * 100)
    before = home.database.read_bytes()
    with pytest.raises(DatabaseCorrupt, match="damaged too"):
        restore_newest_backup(home)
    assert home.database.read_bytes() == before and not list(home.root.glob("*.damaged-*"))


def test_a_named_backup_and_no_backup_at_all(home: Home, tmp_path: Path) -> None:
    assert _titles(restore_newest_backup(home, home.backups / "foya-schema5-old.sqlite3").backup) == [
        "older backup"]
    assert _titles(home.database) == ["older backup"]
    empty = Home(tmp_path / "empty")
    empty.root.mkdir()
    with pytest.raises(InvalidOperation, match="no backup"):
        restore_newest_backup(empty)


def test_refused_while_another_process_uses_the_data_folder(home: Home) -> None:
    lease = LeaseFile.take(home.run)
    try:
        with pytest.raises(InvalidOperation, match="quit it first"):
            restore_newest_backup(home)
    finally:
        lease.release()
    assert restore_newest_backup(home).backup.name == "foya-schema6-new.sqlite3"


def test_foya_restore_backup_says_what_it_did(home: Home) -> None:
    out = foya(home.root, "restore-backup")
    assert out.returncode == 0, out.stderr
    assert "foya-schema6-new.sqlite3" in out.stdout and "damaged database is kept as" in out.stdout
    assert _titles(home.database) == ["newest backup"]
    again = foya(home.root, "restore-backup", "--from", str(home.root / "missing.sqlite3"))
    assert again.returncode != 0 and "Traceback" not in again.stderr and "no backup" in again.stderr
    shutil.rmtree(home.backups)
