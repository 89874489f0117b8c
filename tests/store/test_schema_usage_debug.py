"""Schema 3 → 4: usage rows learn their connection; prices and debug traces appear.

The database here is written as schema 1 had it, so the whole chain (1 → … → 4) runs."""

from __future__ import annotations

import sqlite3

from foya_desktop.store.home import Home
from foya_desktop.store.ledger import usage_entries
from foya_desktop.store.schema import SCHEMA_VERSION
from foya_desktop.store.store import Store


async def test_a_schema_1_ledger_keeps_its_rows_and_gains_a_connection(home: Home) -> None:
    home.ensure()
    con = sqlite3.connect(home.database)
    con.executescript("""
        CREATE TABLE meta_row (key VARCHAR(255) PRIMARY KEY, value TEXT NOT NULL);
        INSERT INTO meta_row VALUES ('schema_version', '1');
        CREATE TABLE usage_row (id INTEGER PRIMARY KEY, session_id VARCHAR(255) NOT NULL,
            turn_id TEXT NOT NULL, speaker TEXT NOT NULL, model TEXT NOT NULL, input_tokens INTEGER,
            output_tokens INTEGER, cache_read_tokens INTEGER, cache_write_tokens INTEGER,
            created_at BIGINT NOT NULL);
        INSERT INTO usage_row VALUES (1, 'ses_old', 't', 'omni', 'm', 100, 5, NULL, NULL, 1700000000000);
    """)
    con.close()
    store = Store(home)
    try:
        (entry,) = await store.read(usage_entries, "ses_old")
        assert (entry.connection, entry.model, entry.usage.input_tokens) == ("", "m", 100)
    finally:
        await store.close()
    con = sqlite3.connect(home.database)
    tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    version = con.execute("SELECT value FROM meta_row WHERE key='schema_version'").fetchone()[0]
    con.close()
    assert {"price_row", "debug_trace_row"} <= tables and version == str(SCHEMA_VERSION)
    assert list(home.backups.glob("foya-schema1-*.sqlite3")), "the old database was backed up first"
