"""When the database is checked in full (``store/integrity.py``), through the real ``foya``.

The damage here is one page of a table Foya never reads, overwritten with 0xff, with the
file's identity then recorded as sound: what bit rot looks like to an open (the file as the
last clean close left it). Only SQLite's full check sees it — so an everyday open must not
pay for that check, ``foya doctor`` and a migration must run it, and once it failed nothing
may write to the file again.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from foya_desktop.store import integrity
from foya_desktop.store.schema import SCHEMA_VERSION
from tests.cli.test_cli import foya
from tests.cli.test_storage_faults import EXIT_CORRUPT, _db, _plain, made, made_session  # noqa: F401


def damage_unseen(home: Path, *, schema: int = SCHEMA_VERSION) -> bytes:
    """A page of a table Foya never reads overwritten, the identity recorded as sound; the bytes."""
    con = sqlite3.connect(_db(home))
    con.execute("CREATE TABLE junk(x BLOB)")
    con.execute("INSERT INTO junk VALUES (zeroblob(20000))")
    con.execute("UPDATE meta_row SET value=? WHERE key='schema_version'", (str(schema),))
    con.commit()
    (root,) = con.execute("SELECT rootpage FROM sqlite_master WHERE name='junk'").fetchone()
    (page,) = con.execute("PRAGMA page_size").fetchone()
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()
    data = bytearray(_db(home).read_bytes())
    data[(root - 1) * page: root * page] = b"\xff" * page
    _db(home).write_bytes(bytes(data))
    (home / "foya.sqlite3-wal").unlink(missing_ok=True)
    integrity.verified_path(_db(home)).unlink(missing_ok=True)  # never checked in full: a check is due
    integrity.record_sound(_db(home), integrity.identity(_db(home)), checked=False)
    return bytes(data)


def _full_checks(home: Path) -> int:
    return (home / "logs" / "foya.log").read_text().count("full consistency check")


def test_an_open_after_a_clean_close_skips_the_full_check_and_doctor_runs_it(made: Path) -> None:  # noqa: F811
    damage_unseen(made)
    checks = _full_checks(made)
    listed = foya(made, "sessions", "list")  # the cheap check only: the damage is not where it looks
    assert listed.returncode == 0, listed.stderr
    assert foya(made, "connections", "list").returncode == 0
    assert _full_checks(made) == checks
    line = _plain(foya(made, "doctor"), EXIT_CORRUPT)
    assert "fails SQLite's consistency check" in line and "Foya did not write to it" in line
    assert _full_checks(made) == checks + 1


def test_a_failed_check_is_kept_and_nothing_writes_to_the_file_again(made: Path) -> None:  # noqa: F811
    damage_unseen(made)
    _plain(foya(made, "doctor"), EXIT_CORRUPT)
    kept = _db(made).read_bytes()
    checks = _full_checks(made)
    for args in (("run", "hello"), ("sessions", "list"), ("connections", "list"), ("doctor",)):
        line = _plain(foya(made, *args), EXIT_CORRUPT)
        assert "fails SQLite's consistency check" in line, args
    assert _full_checks(made) == checks + 1  # doctor checks again; the others refuse from the record
    assert _db(made).read_bytes() == kept


def test_a_migration_checks_the_file_in_full_first(made: Path) -> None:  # noqa: F811
    damaged = damage_unseen(made, schema=SCHEMA_VERSION - 1)
    line = _plain(foya(made, "connections", "list"), EXIT_CORRUPT)
    assert "fails SQLite's consistency check" in line
    assert _db(made).read_bytes() == damaged
    assert not (made / "backups").exists() or not list((made / "backups").iterdir())


def test_doctor_on_a_sound_database_and_on_none(made: Path, tmp_path: Path) -> None:  # noqa: F811
    ok = foya(made, "doctor")
    assert ok.returncode == 0, ok.stderr
    assert "passed SQLite's consistency check" in ok.stdout
    empty = foya(tmp_path / "nothing", "doctor")
    assert empty.returncode == 0 and "nothing to check" in empty.stdout
