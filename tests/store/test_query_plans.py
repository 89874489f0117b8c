"""Start-up recovery and rewind read through indexes, not over every message row (issue 14,
performance: "start-up recovery indexed", "rewind preview/confirm uses the index").

SQLite's own query plan is the proof: a plan that says ``SCAN message_row`` (no index) would
grow with the whole database; the figures are in ``python -m benchmarks.store``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import peewee as pw

from foya_desktop.store import history
from foya_desktop.store.database import open_database
from foya_desktop.store.indexes import OPEN_CALLS_WHERE
from foya_desktop.store.schema import FileChangeRow, MessageRow


def _plan(db: pw.SqliteDatabase, query: Any) -> list[str]:
    sql, params = query.sql()
    cursor = db.execute_sql("EXPLAIN QUERY PLAN " + sql, params)  # type: ignore[no-untyped-call]
    return [row[3] for row in cursor.fetchall()]


def test_recovery_and_rewind_queries_use_indexes(tmp_path: Path) -> None:
    db = open_database(tmp_path / "foya.sqlite3", tmp_path / "backups")
    try:
        recovery = _plan(db, MessageRow.select().where(pw.SQL(OPEN_CALLS_WHERE))
                         .order_by(MessageRow.session, MessageRow.seq))
        assert recovery == ["SCAN t1 USING INDEX message_open_calls"]  # only rows with open calls
        removed = _plan(db, MessageRow.select(pw.fn.COUNT(MessageRow.id)).where(
            (MessageRow.session == "s") & history.VALID & (MessageRow.seq >= 5)))
        valid = MessageRow.select(MessageRow.seq).where(
            (MessageRow.session == "s") & history.VALID & (MessageRow.seq >= 5))
        changes = _plan(db, FileChangeRow.select().where(
            (FileChangeRow.session == "s") & FileChangeRow.seq.in_(valid)))
        for plan in (removed, changes):
            assert any("message_row_session_id_valid_seq (session_id=? AND valid=? AND seq>?)" in step
                       for step in plan), plan
            assert not any(step.startswith("SCAN") for step in plan), plan
    finally:
        db.close()


def test_the_open_calls_index_is_made_at_open_without_a_schema_bump(tmp_path: Path) -> None:
    db = open_database(tmp_path / "foya.sqlite3", tmp_path / "backups")
    try:
        db.execute_sql("DROP INDEX message_open_calls")  # type: ignore[no-untyped-call]  # as before the index
    finally:
        db.close()
    db = open_database(tmp_path / "foya.sqlite3", tmp_path / "backups")
    try:
        rows = db.execute_sql("SELECT name FROM sqlite_master WHERE type='index'")  # type: ignore[no-untyped-call]
        names = {r[0] for r in rows}
        assert "message_open_calls" in names
    finally:
        db.close()


def test_a_branchs_reads_use_indexes_for_each_segment(tmp_path: Path) -> None:
    """Copy-on-write history (issue 14: branch ≤ 2×): a page of an inherited stretch is one index range,
    and the branch's check for calls never closed reads only the open-calls index — neither walks the
    source's 50,000 rows."""
    from foya_desktop.store.history_view import Segment, _segment_condition
    from foya_desktop.store.ops_copy import _OPEN_CALL_SQL

    db = open_database(tmp_path / "foya.sqlite3", tmp_path / "backups")
    try:
        inherited = Segment("source", 0, 49_998)
        narrowed = inherited.narrowed(0, 39_999)  # a page before seq 40,000: one bound, not two
        assert narrowed == Segment("source", 0, 39_999)
        page = _plan(db, MessageRow.select().where(_segment_condition(narrowed) & history.VALID)
                     .order_by(MessageRow.seq.desc()).limit(200))
        assert any("message_row_session_id_valid_seq (session_id=? AND valid=? AND seq<?)" in step
                   for step in page), page
        assert inherited.narrowed(49_998, None) is None and inherited.narrowed(10, 20) == Segment("source", 10, 20)
        assert not any(step.startswith("SCAN") or "TEMP B-TREE" in step for step in page), page
        cond, args = inherited.sql("")
        cursor = db.execute_sql("EXPLAIN QUERY PLAN " + _OPEN_CALL_SQL.format(segment=cond),  # type: ignore[no-untyped-call]
                                (*args, 49_998))
        steps = [row[3] for row in cursor.fetchall()]
        assert any("message_open_calls" in step for step in steps), steps
    finally:
        db.close()


def test_the_search_indexs_tail_is_read_by_rowid_range(tmp_path: Path) -> None:
    """Schema 10: what the index has not caught up with is the queue plus every row above its mark;
    counting, searching and indexing it read that range of rowids, never every message row."""
    from foya_desktop.store import search as fts

    db = open_database(tmp_path / "foya.sqlite3", tmp_path / "backups")
    try:
        for sql in (f"SELECT count(*) FROM {fts._WAITING}",
                    f"SELECT * FROM {fts._QUEUED} AS s ORDER BY s.rowid DESC LIMIT 5",
                    fts._insert("m", f"FROM {fts._WAITING} AS p CROSS JOIN message_row AS m ON m.rowid = p.rid")):
            plan = [r[3] for r in db.execute_sql("EXPLAIN QUERY PLAN " + sql).fetchall()]  # type: ignore[no-untyped-call]
            assert "SEARCH message_row USING INTEGER PRIMARY KEY (rowid>?)" in plan, plan
            assert not any(step.startswith("SCAN message_row") or step == "SCAN m" for step in plan), plan
    finally:
        db.close()
