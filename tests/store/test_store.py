"""The store on a real SQLite file: sessions, history, projection, tombstones."""

from __future__ import annotations

import sqlite3
from dataclasses import replace

import pytest

from foya_desktop.core.errors import NotFound, SchemaTooNew, SessionDeleted
from foya_desktop.core.figures import Usage
from foya_desktop.core.ids import new_id, now_ms
from foya_desktop.core.messages import (
    ImagePart,
    Message,
    MessageStatus,
    TextPart,
    ToolCallPart,
    ToolResultPart,
    ToolState,
)
from foya_desktop.core.model import Session
from foya_desktop.store.artifacts import put_artifact
from foya_desktop.store.events_log import events_of
from foya_desktop.store.history import (
    append_message,
    append_messages,
    complete_tool_call,
    history_page,
    message_count,
    replay,
    update_message,
    valid_messages,
)
from foya_desktop.store.home import Home
from foya_desktop.store.ledger import record_usage, usage_totals
from foya_desktop.store.schema import SCHEMA_VERSION
from foya_desktop.store.sessions import create_session, get_session
from foya_desktop.store.store import Store


def make_session(**kw: object) -> Session:
    now = now_ms()
    return Session(id=new_id("ses"), title="t", created_at=now, updated_at=now, **kw)  # type: ignore[arg-type]


def user(session_id: str, text: str) -> Message:
    return Message(id=new_id("msg"), session_id=session_id, role="user", parts=(TextPart(text),),
                   created_at=now_ms())


async def test_pragmas_wal_foreign_keys(store: Store, home: Home) -> None:
    await store.write(create_session, make_session())
    con = sqlite3.connect(home.database)
    assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    row = con.execute("SELECT value FROM meta_row WHERE key='schema_version'").fetchone()
    assert int(row[0]) == SCHEMA_VERSION
    con.close()


async def test_sequence_numbers_are_per_session(store: Store) -> None:
    a = await store.write(create_session, make_session())
    b = await store.write(create_session, make_session())
    m1 = await store.write(append_message, user(a.id, "one"))
    m2 = await store.write(append_message, user(a.id, "two"))
    m3 = await store.write(append_message, user(b.id, "three"))
    assert (m1.seq, m2.seq) == (2, 3)  # seq 1 is session_created
    assert m3.seq == 2
    events = await store.read(events_of, a.id)
    assert [e[0] for e in events] == [1, 2, 3]


async def test_history_pages_oldest_first(store: Store) -> None:
    s = await store.write(create_session, make_session())
    msgs = [user(s.id, f"m{i}") for i in range(50)]
    stored = await store.write(append_messages, s.id, msgs)
    page = await store.read(history_page, s.id, None, 10)
    assert [m.text for m in page] == [f"m{i}" for i in range(40, 50)]
    older = await store.read(history_page, s.id, page[0].seq, 10)
    assert [m.text for m in older] == [f"m{i}" for i in range(30, 40)]
    assert await store.read(message_count, s.id) == 50
    assert stored[-1].seq == page[-1].seq


async def test_projection_equals_replay_of_events(store: Store) -> None:
    s = await store.write(create_session, make_session())
    await store.write(append_message, user(s.id, "hi"))
    call = ToolCallPart("c1", "read_file", {"path": "a"})
    asst = await store.write(append_message, Message(id=new_id("msg"), session_id=s.id, role="assistant",
                                              parts=(TextPart("ok"), call), speaker="omni"))
    running = replace(asst, parts=(TextPart("ok"), replace(call, state=ToolState.RUNNING)))
    await store.write(update_message, running)
    done = replace(asst, parts=(TextPart("ok"), replace(call, state=ToolState.COMPLETED)))
    result = Message(id=new_id("msg"), session_id=s.id, role="tool", speaker="omni",
                     parts=(ToolResultPart("c1", "read_file", "content"),))
    await store.write(complete_tool_call, done, result)
    projected = await store.read(valid_messages, s.id)
    replayed = await store.read(replay, s.id)
    assert [(m.id, m.parts, m.seq) for m in projected] == [(m.id, m.parts, m.seq) for m in replayed]
    assert projected[1].tool_calls[0].state == ToolState.COMPLETED


async def test_interrupted_status_survives(store: Store) -> None:
    s = await store.write(create_session, make_session())
    m = Message(id=new_id("msg"), session_id=s.id, role="assistant", parts=(TextPart("half"),),
                speaker="omni", status=MessageStatus.INTERRUPTED)
    await store.write(append_message, m)
    (back,) = await store.read(valid_messages, s.id)
    assert back.status == MessageStatus.INTERRUPTED


async def test_tombstone_refuses_late_writes_even_after_reopen(home: Home) -> None:
    store = Store(home)
    s = await store.write(create_session, make_session())
    await store.write(append_message, user(s.id, "bye"))
    await store.write(record_usage, s.id, "t", "omni", "m", Usage(10, 5))
    await store.delete_sessions([s.id])
    with pytest.raises(SessionDeleted):
        await store.write(append_message, user(s.id, "late"))
    await store.close()
    reopened = Store(home)
    with pytest.raises(SessionDeleted):
        await reopened.write(append_message, user(s.id, "later"))
    with pytest.raises(SessionDeleted):
        await reopened.write(create_session, replace(make_session(), id=s.id))
    totals = await reopened.read(usage_totals, s.id)
    assert (totals.input_tokens, totals.output_tokens) == (10, 5)
    with pytest.raises(NotFound):
        await reopened.read(get_session, s.id)
    await reopened.close()


async def test_artifacts_shared_blobs_survive_deletion(store: Store, home: Home) -> None:
    a = await store.write(create_session, make_session())
    b = await store.write(create_session, make_session())
    shared = await store.write(put_artifact, store.files, b"\x89PNG shared", "image/png")
    own = await store.write(put_artifact, store.files, b"\x89PNG own", "image/png")
    for sid, shas in ((a.id, (shared, own)), (b.id, (shared,))):
        parts = tuple(ImagePart(sha, "image/png") for sha in shas)
        await store.write(append_message, Message(id=new_id("msg"), session_id=sid, role="user", parts=parts))
    await store.delete_sessions([a.id])
    assert await store.read(store.files.get, shared) == b"\x89PNG shared"
    with pytest.raises(FileNotFoundError):
        await store.read(store.files.get, own)


async def test_newer_schema_refused(home: Home) -> None:
    store = Store(home)
    await store.close()
    con = sqlite3.connect(home.database)
    con.execute("UPDATE meta_row SET value=? WHERE key='schema_version'", (str(SCHEMA_VERSION + 1),))
    con.commit()
    con.close()
    with pytest.raises(SchemaTooNew, match="newer version of Foya"):
        Store(home)


async def test_reset_phases(store: Store) -> None:
    from foya_desktop.core.model import Phase
    s = await store.write(create_session, make_session())
    await store.set_phase(s.id, Phase.TURN)
    assert store.reset_phases() == 1
    assert (await store.read(get_session, s.id)).phase == Phase.IDLE
