"""Carried identity: a reply's message id exists when its stream starts and the stored message keeps it."""

from __future__ import annotations

from foya_desktop.core.events import MessageAdded, PartDelta, StreamEnded, StreamStarted
from foya_desktop.core.messages import MessageStatus
from foya_desktop.engine.kernel import Kernel
from tests.fakeprovider import FakeProviderServer, Reply
from tests.helpers.engine import Recorder, wait_for, wait_turns


async def test_stream_events_carry_the_id_the_stored_reply_keeps(
        kernel: Kernel, fake: FakeProviderServer, rec: Recorder) -> None:
    """F26/Y28: deltas are not history, but they name the message they become."""
    fake.script(Reply(text="Hello there, friend.", chunk_size=4))
    s = await kernel.sessions.create_session()
    await kernel.turns.send(s.id, "hello")
    await wait_turns(rec, s.id, 1)
    started = [e for e in rec.events if isinstance(e, StreamStarted)]
    deltas = [e for e in rec.events if isinstance(e, PartDelta)]
    ended = [e for e in rec.events if isinstance(e, StreamEnded)]
    assert len(started) == 1 and len(ended) == 1 and deltas
    message_id = started[0].message_id
    assert message_id.startswith("msg")
    assert {d.message_id for d in deltas} == {message_id} and ended[0].message_id == message_id
    added = [e.message for e in rec.events if isinstance(e, MessageAdded) and e.message.role == "assistant"]
    assert [m.id for m in added] == [message_id]
    (reply,) = [m for m in await kernel.store.valid_messages(s.id) if m.role == "assistant"]
    assert reply.id == message_id and reply.text == "Hello there, friend."


async def test_a_stopped_stream_is_stored_under_its_stream_id(
        kernel: Kernel, fake: FakeProviderServer, rec: Recorder) -> None:
    """F26: the partial reply of a stop is stored interrupted, under the id its stream carried."""
    fake.script(Reply(text="word " * 200, chunk_size=5, delay_per_chunk=0.02))
    s = await kernel.sessions.create_session()
    await kernel.turns.send(s.id, "long one")
    await wait_for(lambda: any(isinstance(e, PartDelta) for e in rec.events))
    await kernel.turns.stop(s.id)
    await wait_turns(rec, s.id, 1)
    (started,) = [e for e in rec.events if isinstance(e, StreamStarted)]
    partial = (await kernel.store.valid_messages(s.id))[-1]
    assert partial.status == MessageStatus.INTERRUPTED
    assert partial.id == started.message_id
