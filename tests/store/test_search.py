"""The FTS5 search index on a real SQLite file: substrings, CJK, order, filters, rewind, delete, migration.

Y36 (search by text or speaker); issue 11 "Search across sessions".
"""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path

import pytest

from foya_desktop.core.errors import InvalidOperation
from foya_desktop.core.messages import Message, Role, TextPart, ToolResultPart
from foya_desktop.engine.bootstrap import build_kernel
from foya_desktop.engine.kernel import Kernel
from foya_desktop.providers.keys import KeyStore
from foya_desktop.store import search as fts
from foya_desktop.store.events_log import events_of
from foya_desktop.store.history import append_message, append_messages, update_message, valid_messages
from foya_desktop.store.home import Home
from foya_desktop.store.schema import SCHEMA_VERSION, MessageRow, SessionRow
from tests.helpers.fake_keyring import MemoryKeyring


@pytest.fixture
async def kernel(tmp_path: Path) -> AsyncIterator[Kernel]:
    k = build_kernel(Home(tmp_path / "home"), keystore=KeyStore(MemoryKeyring()))
    yield k
    await k.close()


def _msg(mid: str, sid: str, role: Role, text: str, speaker: str = "", at: int = 0) -> Message:
    return Message(mid, sid, role, (TextPart(text),), speaker=speaker or ("omni" if role == "assistant" else ""),
                   created_at=at)


async def _session(kernel: Kernel, title: str, workdir: str | None = None) -> str:
    return str((await kernel.sessions.create_session(title=title, workdir=workdir)).id)


async def test_substrings_identifiers_and_newest_first(kernel: Kernel) -> None:
    sid = await _session(kernel, "Parser")
    await kernel.store.write(append_messages, sid, [
        _msg("m1", sid, "user", "How does argparse.parse_args() handle --flags?", at=1),
        _msg("m2", sid, "assistant", "parse_args reads sys.argv", at=2),
        _msg("m3", sid, "user", "and configparser?", at=3)])
    hits = await kernel.search.find("parse_args")
    assert [h.message_id for h in hits] == ["m2", "m1"], "newest first; identifiers match as substrings"
    assert hits[0].session_title == "Parser" and hits[0].speaker == "omni"
    assert [h.message_id for h in await kernel.search.find("PARSER")] == ["m3"], "case-insensitive"
    assert [h.message_id for h in await kernel.search.find("argv sys")] == ["m2"], "every word must match"
    assert "parse_args" in hits[1].snippet


async def test_cjk_queries_shorter_than_the_trigram_minimum(kernel: Kernel) -> None:
    sid = await _session(kernel, "中文")
    await kernel.store.write(append_messages, sid, [
        _msg("c1", sid, "user", "我们把数据存在 SQLite 里"),
        _msg("c2", sid, "assistant", "好的，数据库已经建好了"),
        _msg("c3", sid, "user", "今天天气不错")])
    assert [h.message_id for h in await kernel.search.find("数据")] == ["c2", "c1"]
    assert [h.message_id for h in await kernel.search.find("数据库")] == ["c2"]
    assert [h.message_id for h in await kernel.search.find("数据 SQLite")] == ["c1"], "short and long terms combine"
    assert [h.message_id for h in await kernel.search.find("天")] == ["c3"]


async def test_filters_project_speaker_and_date(kernel: Kernel, tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    bound = await _session(kernel, "Bound", str(tmp_path / "a"))
    loose = await _session(kernel, "Loose")
    await kernel.store.write(append_messages, bound, [_msg("b1", bound, "user", "deploy the cache", at=1000),
                                               _msg("b2", bound, "assistant", "cache deployed", at=5000)])
    await kernel.store.write(append_messages, loose, [_msg("l1", loose, "user", "cache question", at=9000)])
    project = (await kernel.projects.list_projects())[0]
    assert [h.message_id for h in await kernel.search.find("cache", project_id=project.id)] == ["b2", "b1"]
    assert [h.message_id for h in await kernel.search.find("cache", speaker="user")] == ["l1", "b1"]
    assert [h.message_id for h in await kernel.search.find("cache", speaker="omni")] == ["b2"]
    assert [h.message_id for h in await kernel.search.find("cache", since_ms=2000, until_ms=9000)] == ["b2"]
    assert [h.message_id for h in await kernel.search.find("cache", session_id=loose)] == ["l1"]
    with pytest.raises(InvalidOperation):
        await kernel.search.find("   ")


async def test_tool_output_is_not_indexed_and_rewound_or_deleted_messages_leave(kernel: Kernel) -> None:
    sid = await _session(kernel, "Lifecycle")
    stored = await kernel.store.write(append_messages, sid, [
        _msg("u1", sid, "user", "first question about widgets"),
        Message("t1", sid, "tool", (ToolResultPart("c1", "read_file", "widgets everywhere"),), speaker="omni"),
        _msg("u2", sid, "user", "second question about widgets")])
    assert [h.message_id for h in await kernel.search.find("widgets")] == ["u2", "u1"]
    preview = await kernel.lifecycle.rewind_preview(sid, "u2")
    await kernel.lifecycle.rewind_confirm(sid, preview)
    assert [h.message_id for h in await kernel.search.find("widgets")] == ["u1"], "a rewound message is gone"
    assert stored
    await kernel.lifecycle.delete_session(sid)
    assert await kernel.search.find("widgets") == [], "a deleted session leaves the index"


async def test_find_in_session_by_text_and_speaker_returns_all_pages_oldest_first(kernel: Kernel) -> None:
    sid = await _session(kernel, "Long")
    messages = [_msg(f"m{i:05d}", sid, "user" if i % 2 == 0 else "assistant",
                     f"line {i} " + ("needle" if i % 1000 == 7 else "hay")) for i in range(5000)]
    await kernel.store.write(append_messages, sid, messages)
    found = await kernel.search.find_in_session(sid, "needle")
    assert found == [f"m{i:05d}" for i in range(5000) if i % 1000 == 7]
    assert await kernel.search.find_in_session(sid, "needle", "user") == []
    assert len(await kernel.search.find_in_session(sid, "", "omni")) == 2500, "speaker alone finds their messages"
    assert await kernel.search.message_seq(found[0]) < await kernel.search.message_seq(found[-1])


def test_migration_from_schema_1_indexes_existing_messages(tmp_path: Path) -> None:
    """An older database gains the index on open (after a backup), existing messages included."""
    from foya_desktop.store.database import open_database

    path = tmp_path / "foya.sqlite3"
    db = open_database(path, tmp_path / "backups")
    SessionRow.insert(id="s1", title="Old", created_at=0, updated_at=0).execute()
    # as a schema-1 database had none of the index's pieces
    db.execute_sql("DROP TRIGGER message_search_tail")  # type: ignore[no-untyped-call]
    db.execute_sql("DROP TABLE search_state")  # type: ignore[no-untyped-call]
    MessageRow.insert(id="old1", session="s1", seq=1, role="user", speaker="",
                      parts='[{"kind": "text", "text": "legacy words"}]', created_at=0).execute()
    db.execute_sql("DROP TABLE message_search")  # type: ignore[no-untyped-call]
    db.execute_sql("UPDATE meta_row SET value = '1' WHERE key = 'schema_version'")  # type: ignore[no-untyped-call]
    db.close()
    db = open_database(path, tmp_path / "backups")
    assert [h.message_id for h in fts.search(fts.SearchQuery("legacy"))] == ["old1"]
    db.close()
    assert list((tmp_path / "backups").glob("foya-schema1-*.sqlite3")), "backed up before migrating"
    assert sqlite3.connect(str(path)).execute("SELECT value FROM meta_row WHERE key='schema_version'"
                                              ).fetchone()[0] == str(SCHEMA_VERSION)


def _queued() -> int:
    return fts.waiting_count()


async def test_a_message_is_found_the_moment_it_commits_before_it_is_indexed(kernel: Kernel) -> None:
    """Issue 14 (append goal): the index is fed in batches of ``BATCH``; what waits in the queue is
    searched too, and an edit or a rewind takes it out at once."""
    sid = await _session(kernel, "Queued")
    await kernel.store.write(fts.catch_up)
    first = await kernel.store.write(append_message, _msg("q1", sid, "user", "a freshly queued gizmo"))
    await kernel.store.write(append_message, _msg("q2", sid, "assistant", "gizmo noted, 数据 too", at=5))
    assert await kernel.store.read(_queued) == 2, "not indexed yet"
    assert [h.message_id for h in await kernel.search.find("gizmo")] == ["q2", "q1"]
    assert [h.message_id for h in await kernel.search.find("GIZMO", speaker="user")] == ["q1"]
    assert [h.message_id for h in await kernel.search.find("数据")] == ["q2"], "short terms too"
    assert await kernel.search.find_in_session(sid, "gizmo") == ["q1", "q2"]
    await kernel.store.write(update_message, replace(first, parts=(TextPart("an edited widget"),)))
    assert [h.message_id for h in await kernel.search.find("gizmo")] == ["q2"], "an edit re-queues the new text"
    assert [h.message_id for h in await kernel.search.find("widget")] == ["q1"]
    preview = await kernel.lifecycle.rewind_preview(sid, "q1")
    await kernel.lifecycle.rewind_confirm(sid, preview)
    assert await kernel.search.find("gizmo") == [] and await kernel.search.find("widget") == [], "rewound: gone"
    assert await kernel.store.read(_queued) == 2, "both rows still waited (in the tail, invalid)"
    await kernel.store.write(fts.catch_up)
    assert await kernel.store.read(_queued) == 0
    assert await kernel.search.find("gizmo") == [] and await kernel.search.find("widget") == [], \
        "indexing the tail skipped the rewound rows"


async def test_the_queue_is_indexed_every_batch_and_when_a_store_opens(tmp_path: Path) -> None:
    from foya_desktop.store.store import Store

    home = Home(tmp_path / "home")
    k = build_kernel(home, keystore=KeyStore(MemoryKeyring()))
    try:
        sid = await _session(k, "Batches")
        await k.store.write(fts.catch_up)
        for i in range(fts.BATCH - 1):
            await k.store.write(append_message, _msg(f"b{i:03d}", sid, "user", f"batch word {i}"))
        assert await k.store.read(_queued) == fts.BATCH - 1
        await k.store.write(append_message, _msg("last", sid, "user", "batch word last"))
        assert await k.store.read(_queued) == 0, "the batch's last append indexed the queue"
        await k.store.write(append_message, _msg("left", sid, "user", "left in the queue"))
        assert await k.store.read(_queued) == 1
    finally:
        await k.close()
    reader = Store(home, read_only=True)  # reads never index, yet find what waits in the queue
    try:
        assert await reader.read(_queued) == 1
        assert [h.message_id for h in await reader.read(fts.search, fts.SearchQuery("queue"))] == ["left"]
    finally:
        await reader.close()
    store = Store(home)  # a process that stopped left one row queued: the next writing open indexes it
    try:
        assert await store.read(_queued) == 0
        assert [h.message_id for h in await store.read(fts.search, fts.SearchQuery("queue"))] == ["left"]
        assert len(await store.read(fts.search, fts.SearchQuery("batch word", limit=500))) == fts.BATCH
    finally:
        await store.close()


async def test_the_append_hot_path_writes_the_event_payload_the_codec_writes(kernel: Kernel) -> None:
    """``history.append_message`` encodes the event by hand (parts once); it must equal the codec's."""
    import json

    from foya_desktop.store.codec import message_payload

    sid = await _session(kernel, "Payload")
    message = Message("p1", sid, "assistant", (TextPart('quote " and 中文 \\ ok'),), speaker="omni",
                      turn_id="t1", created_at=42, meta={"k": [1, "two"]})
    stored = await kernel.store.write(append_message, message)
    (event,) = [p for _, t, p in await kernel.store.read(events_of, sid) if t == "message_added"]
    assert event == message_payload(message)
    raw = await kernel.store.read(lambda: MessageRow._meta.database.execute_sql(
        "SELECT payload FROM event_row WHERE session_id = ? AND seq = ?", (sid, stored.seq)).fetchone()[0])
    assert raw == json.dumps(message_payload(message))
    assert await kernel.store.read(valid_messages, sid) == [stored]


def _count(sql: str) -> int:
    return int(MessageRow._meta.database.execute_sql(sql).fetchone()[0])


async def test_an_append_writes_nothing_for_the_index_its_row_is_the_tail(kernel: Kernel) -> None:
    """Issue 14 (append ≥ 0.5× raw ``sqlite3``): schema 10 queues no row per append; a new message is
    above the index's mark until a batch catches up, and found meanwhile."""
    sid = await _session(kernel, "Tail")
    await kernel.store.write(fts.catch_up)
    indexed = await kernel.store.read(_count, f"SELECT count(*) FROM {fts.TABLE}")
    stored = await kernel.store.write(append_message, _msg("t1", sid, "user", "a tail gadget"))
    assert await kernel.store.read(_count, f"SELECT count(*) FROM {fts.PENDING}") == 0, "nothing queued"
    assert await kernel.store.read(_count, f"SELECT count(*) FROM {fts.TABLE}") == indexed, "nothing indexed"
    assert await kernel.store.read(_queued) == 1
    await kernel.store.write(update_message, replace(stored, parts=(TextPart("a tail gadget, edited"),)))
    assert await kernel.store.read(_count, f"SELECT count(*) FROM {fts.PENDING}") == 0, \
        "an edit of a tail row is not queued as well"
    assert [h.message_id for h in await kernel.search.find("gadget")] == ["t1"], "found once"
    assert await kernel.store.read(_queued) == 1
    await kernel.store.write(fts.catch_up)
    assert await kernel.store.read(_queued) == 0
    assert [h.message_id for h in await kernel.search.find("edited")] == ["t1"], "indexed with its edit"
    assert await kernel.store.read(_count, f"SELECT count(*) FROM {fts.TABLE}") == indexed + 1


async def test_a_rowid_given_again_after_the_newest_rows_are_deleted_is_indexed(kernel: Kernel) -> None:
    """SQLite gives a new row the largest rowid + 1: deleting the newest session lets its rowids be
    used again. Those rows were under the index's mark; the tail trigger lowers the mark, so a new
    message with such a rowid is found at once and indexed by the next batch."""
    keep = await _session(kernel, "Kept")
    await kernel.store.write(append_messages, keep, [_msg(f"k{i}", keep, "user", f"kept line {i}") for i in range(3)])
    doomed = await _session(kernel, "Doomed")
    await kernel.store.write(append_messages, doomed, [_msg(f"d{i}", doomed, "user", f"doomed line {i}")
                                                       for i in range(5)])
    await kernel.store.write(fts.catch_up)
    mark = await kernel.store.read(_count, f"SELECT indexed_upto FROM {fts.STATE}")
    await kernel.lifecycle.delete_session(doomed)
    assert await kernel.search.find("doomed") == []
    await kernel.store.write(append_message, _msg("reborn", keep, "user", "a reborn line"))
    rowid = await kernel.store.read(_count, "SELECT rowid FROM message_row WHERE id = 'reborn'")
    assert rowid <= mark, "the case under test: a rowid the index had passed is given again"
    assert [h.message_id for h in await kernel.search.find("reborn")] == ["reborn"], "found before indexing"
    await kernel.store.write(fts.catch_up)
    assert [h.message_id for h in await kernel.search.find("reborn")] == ["reborn"], "and after"
    assert [h.message_id for h in await kernel.search.find("line")] == ["reborn", "k2", "k1", "k0"]


async def test_a_schema_9_database_keeps_its_queue_and_stops_queueing_appends(tmp_path: Path) -> None:
    """The 9 → 10 migration: the row schema 9 left queued is still found and indexed; the insert
    trigger is gone, the tail trigger and the mark are in place."""
    import shutil

    from foya_desktop.store.store import Store
    from tests.store.fixtures.make_fixture import fixture_dir

    root = tmp_path / "home"
    shutil.copytree(fixture_dir(9), root)
    before = sqlite3.connect(root / "foya.sqlite3")
    assert before.execute(f"SELECT count(*) FROM {fts.PENDING}").fetchone()[0] == 1
    before.close()
    store = Store(Home(root))
    try:
        hits = await store.read(fts.search, fts.SearchQuery("queued for the search index"))
        assert len(hits) == 1
        triggers = set(await store.read(lambda: [r[0] for r in MessageRow._meta.database.execute_sql(
            "SELECT name FROM sqlite_master WHERE type = 'trigger'").fetchall()]))
        assert f"{fts.TABLE}_insert" not in triggers and f"{fts.TABLE}_tail" in triggers
        assert await store.read(_queued) == 0, "opening a writing store indexed what waited"
        top = await store.read(_count, "SELECT max(rowid) FROM message_row")
        assert await store.read(_count, f"SELECT indexed_upto FROM {fts.STATE}") == top
    finally:
        await store.close()
