"""Indexes that need no schema version: created ``IF NOT EXISTS`` every time the database opens.

An index changes no table, so a database carrying one opens in every Foya version, and one
without it (made by an older version) gets it at the next open. The migration fixtures compare
tables, not indexes (``tests/store/test_migrations.py``).
"""

from __future__ import annotations

import peewee as pw

OPEN_CALLS_WHERE = ("valid = 1 AND role = 'assistant' AND (instr(parts, '\"state\": \"running\"') > 0 "
                    "OR instr(parts, '\"state\": \"pending\"') > 0)")
"""Assistant messages holding a tool call still pending or running: after a crash the only rows
start-up recovery reads. Queries must repeat exactly these terms for SQLite to use the partial
index below (``ops_recovery``)."""

INSTALL = [
    f"CREATE INDEX IF NOT EXISTS message_open_calls ON message_row(session_id, seq) WHERE {OPEN_CALLS_WHERE}",
]


def install(db: pw.Database) -> None:
    """Create the indexes if missing (every open; cheap when present)."""
    for statement in INSTALL:
        db.execute_sql(statement)  # type: ignore[no-untyped-call]
