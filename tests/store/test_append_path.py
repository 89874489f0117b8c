"""The append hot path's leaner plumbing keeps what the slower one guaranteed (issue 14: single-message
append through the store vs raw ``sqlite3``): one transaction per write with savepoints inside, rollback
on an error, the right sequence numbers and errors for a missing session, and the stored message carried
whole."""

from __future__ import annotations

import dataclasses
import sqlite3

import pytest

from foya_desktop.core.errors import NotFound, SessionDeleted
from foya_desktop.core.ids import new_id, now_ms
from foya_desktop.core.messages import Message, TextPart
from foya_desktop.core.model import Session
from foya_desktop.store.events_log import events_of
from foya_desktop.store.history import append_message, valid_messages, with_seq
from foya_desktop.store.home import Home
from foya_desktop.store.schema import database_proxy
from foya_desktop.store.sessions import create_session, get_session
from foya_desktop.store.store import Store


def _session() -> Session:
    return Session(id=new_id("ses"), title="t", created_at=now_ms(), updated_at=now_ms())


def _user(session_id: str, text: str) -> Message:
    return Message(new_id("msg"), session_id, "user", (TextPart(text),), created_at=now_ms())


def test_with_seq_carries_every_field_of_a_message() -> None:
    """``with_seq`` spells ``Message``'s fields out (cheaper than ``dataclasses.replace``): a field added to
    ``Message`` and not carried would be dropped from every appended message, so this fails first."""
    values = {f.name: object() for f in dataclasses.fields(Message)}
    message = Message(**values)  # type: ignore[arg-type]
    stored = with_seq(message, 7)
    expected = dataclasses.replace(message, seq=7)
    assert all(getattr(stored, f.name) is getattr(expected, f.name) for f in dataclasses.fields(Message))


async def test_an_error_in_a_write_rolls_the_whole_transaction_back(store: Store) -> None:
    s = await store.write(create_session, _session())
    before = await store.read(events_of, s.id)

    def half_then_fail() -> None:
        append_message(_user(s.id, "written, then undone"))
        raise ValueError("the job failed")
    with pytest.raises(ValueError, match="the job failed"):
        await store.write(half_then_fail)
    assert await store.read(valid_messages, s.id) == []
    assert await store.read(events_of, s.id) == before
    stored = await store.write(append_message, _user(s.id, "next"))  # the connection is usable again
    assert stored.seq == len(before) + 1


async def test_a_savepoint_inside_a_write_is_still_a_savepoint(store: Store) -> None:
    """Peewee's ``atomic()`` inside a store write nests as a savepoint (the write's transaction is on
    peewee's stack): rolling it back keeps what the write did before it."""
    s = await store.write(create_session, _session())

    def keep_one_undo_one() -> None:
        append_message(_user(s.id, "kept"))
        with database_proxy.atomic() as savepoint:
            append_message(_user(s.id, "undone"))
            savepoint.rollback()
        append_message(_user(s.id, "also kept"))
    await store.write(keep_one_undo_one)
    assert [m.text for m in await store.read(valid_messages, s.id)] == ["kept", "also kept"]


async def test_the_real_error_reaches_the_caller_when_sqlite_already_rolled_back(store: Store) -> None:
    """SQLite ends a transaction by itself on some errors (a full disk); the rollback after it must not
    replace the caller's error with "cannot rollback - no transaction is active"."""
    s = await store.write(create_session, _session())

    def rolled_back_then_fail() -> None:
        append_message(_user(s.id, "gone"))
        database_proxy.connection().execute("ROLLBACK")  # what SQLite does on SQLITE_FULL
        raise ValueError("the original error")
    with pytest.raises(ValueError, match="the original error"):
        await store.write(rolled_back_then_fail)
    assert [m.text for m in await store.read(valid_messages, s.id)] == []
    await store.write(append_message, _user(s.id, "after"))
    assert [m.text for m in await store.read(valid_messages, s.id)] == ["after"]


async def test_appends_take_consecutive_seqs_and_move_the_session_forward(store: Store) -> None:
    s = await store.write(create_session, _session())
    head = len(await store.read(events_of, s.id))
    first = await store.write(append_message, _user(s.id, "one"))
    second = await store.write(append_message, _user(s.id, "two"))
    assert (first.seq, second.seq) == (head + 1, head + 2)
    assert [seq for seq, _, _ in await store.read(events_of, s.id)][-2:] == [head + 1, head + 2]
    session = await store.read(get_session, s.id)
    assert session.updated_at >= s.updated_at


async def test_an_append_to_a_missing_or_deleted_session_writes_nothing(home: Home) -> None:
    """The head is read before anything is written: a deleted (tombstoned) session raises
    ``SessionDeleted``, an unknown one ``NotFound``, and neither leaves a row behind."""
    store = Store(home)
    try:
        s = await store.write(create_session, _session())
        await store.write(append_message, _user(s.id, "before"))
        await store.delete_sessions([s.id])
        with pytest.raises(SessionDeleted):
            await store.write(append_message, _user(s.id, "late"))
        with pytest.raises(NotFound):
            await store.write(append_message, _user(new_id("ses"), "nobody's"))
    finally:
        await store.close()
    con = sqlite3.connect(home.database)
    try:
        assert con.execute("SELECT count(*) FROM message_row").fetchone()[0] == 0
        assert con.execute("SELECT count(*) FROM event_row").fetchone()[0] == 0
    finally:
        con.close()
