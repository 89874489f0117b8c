"""Migration harness: every released schema's database opens, migrates and still replays.

``tests/store/fixtures/schema-<N>/`` holds a real data directory written by the
Foya that had ``SCHEMA_VERSION = N`` (made by ``make_fixture.py``; see the README
there). Each test works on a copy, so the checked-in files never change.

Seed ids: S1-DB (one local SQLite database survives upgrades), S1-HIST (the event
log is the truth the message projection is derived from).
"""

from __future__ import annotations

import shutil
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from foya_desktop.core.errors import SchemaTooNew, StorageError
from foya_desktop.engine.bootstrap import build_kernel
from foya_desktop.providers.keys import KeyStore
from foya_desktop.store import database, schema
from foya_desktop.store.database import stored_version
from foya_desktop.store.home import Home
from foya_desktop.store.ops_rewind import pending_journals
from foya_desktop.store.schema import SCHEMA_VERSION
from foya_desktop.store.store import Store
from tests.helpers.fake_keyring import MemoryKeyring
from tests.store.fixtures.make_fixture import HERE, fixture_dir, make

FIXTURES = sorted(int(p.name.removeprefix("schema-")) for p in HERE.glob("schema-*"))

Rows = dict[str, list[tuple[Any, ...]]]


def _install(source: Path, root: Path) -> Home:
    """A data directory that is a copy of ``source`` (never open the checked-in file itself)."""
    shutil.copytree(source, root)
    return Home(root)


def _rows(path: Path, table: str) -> list[tuple[Any, ...]]:
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return con.execute(f"SELECT * FROM {table} ORDER BY 1, 2").fetchall()
    finally:
        con.close()


def _live_sessions(path: Path) -> list[str]:
    return [r[0] for r in _rows(path, "session_row")]


def _backups(home: Home) -> list[Path]:
    return sorted(home.backups.glob("*.sqlite3")) if home.backups.exists() else []


def test_every_released_schema_has_a_fixture() -> None:
    """A schema bump without a fixture of the new version fails here (see fixtures/README.md)."""
    assert list(range(1, SCHEMA_VERSION + 1)) == FIXTURES
    for version in FIXTURES:
        db = fixture_dir(version) / "foya.sqlite3"
        assert stored_version(db) == version
        assert _empty_tables(db) == []


def _empty_tables(db: Path) -> list[str]:
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        tables = [r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        return [t for t in tables if con.execute(f"SELECT count(*) FROM {t}").fetchone()[0] == 0]
    finally:
        con.close()


@pytest.mark.parametrize("version", FIXTURES)
async def test_fixture_opens_migrates_and_replays(version: int, tmp_path: Path) -> None:
    home = _install(fixture_dir(version), tmp_path / "home")
    events_before = _rows(home.database, "event_row")
    messages_before = _rows(home.database, "message_row")
    assert events_before and messages_before

    store = Store(home)  # opens: backup, create missing tables, migrate
    try:
        backups = _backups(home)
        if version < SCHEMA_VERSION:
            (backup,) = backups  # exactly one copy, of the old version, taken before migrating
            assert backup.name.startswith(f"foya-schema{version}-")
            assert stored_version(backup) == version
            assert _rows(backup, "event_row") == events_before
        else:
            assert backups == []  # nothing to migrate, nothing copied
        assert stored_version(home.database) == SCHEMA_VERSION

        # The event log is append-only: a migration never rewrites history.
        assert _rows(home.database, "event_row") == events_before
        sessions = _live_sessions(home.database)
        assert len(sessions) >= 3
        calls = 0
        for session_id in sessions:
            replayed = await store.replay(session_id)
            stored = await store.valid_messages(session_id)
            assert replayed == stored, session_id
            calls += sum(len(m.tool_calls) for m in stored)
        assert calls > 0
        assert len(_rows(home.database, "message_row")) == len(messages_before)
    finally:
        await store.close()


@pytest.mark.parametrize("version", FIXTURES)
async def test_the_kernel_starts_on_every_fixture_and_recovers_what_the_crash_left(
        version: int, tmp_path: Path) -> None:
    """The fixtures hold a rewind journal and a ``running`` tool call left by a "crash".

    The journal's project folder was a temporary one that no longer exists, so start-up
    keeps the journal (to retry at the next start) and leaves that history alone; the
    dangling call is closed with an interrupted result either way.
    """
    home = _install(fixture_dir(version), tmp_path / "home")
    kernel = build_kernel(home, keystore=KeyStore(MemoryKeyring()))
    try:
        (journal,) = await kernel.store.read(pending_journals)
        assert not Path(journal.workdir).exists()
        crashed = next(s for s in await kernel.sessions.list_sessions() if s.title == "fixture: crashed")
        assert crashed.id == journal.session_id
        history = await kernel.store.valid_messages(crashed.id)
        (closed,) = [m for m in history if any(c.call_id == "call_crash" for c in m.tool_calls)]
        assert [c.state for c in closed.tool_calls] == ["error"]
        result = history[-1].tool_result
        assert result is not None and result.call_id == "call_crash" and result.is_error
        for s in await kernel.sessions.list_sessions():
            for m in await kernel.store.valid_messages(s.id):
                assert all(c.state not in ("pending", "running") for c in m.tool_calls)
            assert await kernel.store.replay(s.id) == await kernel.store.valid_messages(s.id)
        assert {c.name for c in await kernel.connections.list_connections()} == {"fake"}
        assert "Scout" in {vp.name for vp in await kernel.vps.list_vps()}
    finally:
        await kernel.close()


def test_the_fixture_script_still_runs_with_the_current_code(tmp_path: Path) -> None:
    """The next schema bump needs it: a fixture of the current schema, every table filled."""
    out = make(tmp_path / f"schema-{SCHEMA_VERSION}")
    db = out / "foya.sqlite3"
    assert stored_version(db) == SCHEMA_VERSION
    assert _empty_tables(db) == []
    kinds = {r[3] for r in _rows(db, "event_row")}
    assert {"message_added", "message_updated", "history_rewound", "compaction_checkpoint"} <= kinds


# ---- the backup path, exercised now by pretending the next version exists -------------------

def _next_version(monkeypatch: pytest.MonkeyPatch, step: Callable[[Any], None]) -> None:
    monkeypatch.setattr(database, "SCHEMA_VERSION", SCHEMA_VERSION + 1)
    monkeypatch.setitem(schema.MIGRATIONS, SCHEMA_VERSION, step)


async def test_a_migration_copies_the_old_database_first(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    home = _install(fixture_dir(SCHEMA_VERSION), tmp_path / "home")
    events = _rows(home.database, "event_row")

    def add_column(db: Any) -> None:
        db.execute_sql("ALTER TABLE session_row ADD COLUMN harness_probe TEXT NOT NULL DEFAULT ''")

    _next_version(monkeypatch, add_column)
    store = Store(home)
    try:
        (backup,) = _backups(home)
        assert stored_version(backup) == SCHEMA_VERSION and stored_version(home.database) == SCHEMA_VERSION + 1
        assert "harness_probe" not in {c[1] for c in _rows(backup, "pragma_table_info('session_row')")}
        for session_id in _live_sessions(home.database):
            assert await store.replay(session_id) == await store.valid_messages(session_id)
    finally:
        await store.close()
    assert _rows(home.database, "event_row") == events


def test_a_failed_migration_changes_nothing_and_retries_keep_one_backup(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The migration is one transaction (all or nothing), reported as a storage error; the copy
    is taken once per version, so failed retries do not pile up backups (issue 14)."""
    home = _install(fixture_dir(SCHEMA_VERSION), tmp_path / "home")
    sessions_before = _rows(home.database, "session_row")

    def half_done(db: Any) -> None:
        db.execute_sql("ALTER TABLE session_row ADD COLUMN half_done TEXT")
        raise sqlite3.OperationalError("disk I/O error (simulated)")

    _next_version(monkeypatch, half_done)
    for attempt in (1, 2):
        with pytest.raises(StorageError):
            Store(home)
        assert len(_backups(home)) == 1, attempt
        assert stored_version(home.database) == SCHEMA_VERSION
        assert _rows(home.database, "session_row") == sessions_before  # no half_done column
    assert all(stored_version(b) == SCHEMA_VERSION for b in _backups(home))


def test_a_newer_fixture_is_refused_unchanged(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Opening the current fixture with an older Foya (one schema behind) is refused, file untouched."""
    home = _install(fixture_dir(SCHEMA_VERSION), tmp_path / "home")
    before = home.database.read_bytes()
    monkeypatch.setattr(database, "SCHEMA_VERSION", SCHEMA_VERSION - 1)
    with pytest.raises(SchemaTooNew, match="newer version of Foya"):
        Store(home)
    assert home.database.read_bytes() == before and _backups(home) == []
