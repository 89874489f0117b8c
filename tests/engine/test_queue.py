"""The per-session FIFO queue, stop and interrupt."""

from __future__ import annotations

from pathlib import Path

from foya_desktop.core.events import QueueChanged
from foya_desktop.core.messages import MessageStatus
from foya_desktop.core.model import ApprovalMode
from foya_desktop.engine.kernel import Kernel
from tests.fakeprovider import FakeProviderServer, Reply, last_user_text
from tests.helpers.engine import Recorder, wait_for, wait_turns

SLOW = Reply(text="word " * 200, chunk_size=5, delay_per_chunk=0.02)


def echo(body: dict[str, object]) -> Reply:
    return Reply(text=f"answer to {last_user_text(body)}")


async def test_messages_sent_while_busy_are_queued_and_reorderable(
        kernel: Kernel, fake: FakeProviderServer, rec: Recorder) -> None:
    fake.script(Reply(text="first reply " * 20, chunk_size=4, delay_per_chunk=0.02))
    fake.responder = echo
    s = await kernel.sessions.create_session()
    await kernel.turns.send(s.id, "first")
    a = await kernel.turns.send(s.id, "second")
    b = await kernel.turns.send(s.id, "third")
    assert a.queue_item_id and b.queue_item_id and a.message_id is None
    assert [i.text for i in kernel.queue.items(s.id)] == ["second", "third"]
    kernel.queue.move(s.id, b.queue_item_id, 0)
    kernel.queue.edit(s.id, a.queue_item_id, "second, edited")
    snapshots = [e for e in rec.of(QueueChanged) if e.session_id == s.id]
    assert [i.text for i in snapshots[-1].items] == ["third", "second, edited"]  # type: ignore[attr-defined]
    await wait_turns(rec, s.id, 3)
    users = [m.text for m in await kernel.store.valid_messages(s.id) if m.role == "user"]
    assert users == ["first", "third", "second, edited"]
    assert kernel.queue.items(s.id) == ()


async def test_stop_keeps_partial_as_interrupted_and_keeps_queue(
        kernel: Kernel, fake: FakeProviderServer, rec: Recorder) -> None:
    fake.script(SLOW)
    fake.responder = echo
    s = await kernel.sessions.create_session()
    await kernel.turns.send(s.id, "long one")
    queued = await kernel.turns.send(s.id, "next one")
    await wait_for(lambda: any(e for e in rec.events if type(e).__name__ == "PartDelta"))
    await kernel.turns.stop(s.id, keep_queue=True)
    (done,) = await wait_turns(rec, s.id, 1)
    assert done.status == "stopped"
    history = await kernel.store.valid_messages(s.id)
    partial = history[-1]
    assert partial.role == "assistant" and partial.status == MessageStatus.INTERRUPTED
    assert partial.text and len(partial.text) < len(SLOW.text)
    assert [i.id for i in kernel.queue.items(s.id)] == [queued.queue_item_id]
    assert kernel.queue.paused(s.id)
    kernel.queue.resume(s.id)
    await wait_turns(rec, s.id, 2)
    assert [m.text for m in await kernel.store.valid_messages(s.id)][-1] == "answer to next one"


async def test_stop_and_clear_queue(kernel: Kernel, fake: FakeProviderServer, rec: Recorder) -> None:
    fake.script(SLOW)
    s = await kernel.sessions.create_session()
    await kernel.turns.send(s.id, "long one")
    await kernel.turns.send(s.id, "never sent")
    await kernel.turns.stop(s.id, keep_queue=False)
    await wait_turns(rec, s.id, 1)
    assert kernel.queue.items(s.id) == ()
    assert [m.text for m in await kernel.store.valid_messages(s.id) if m.role == "user"] == ["long one"]


async def test_interrupt_dispatches_chosen_message_next(
        kernel: Kernel, fake: FakeProviderServer, rec: Recorder) -> None:
    fake.script(SLOW)
    fake.responder = echo
    s = await kernel.sessions.create_session()
    await kernel.turns.send(s.id, "long one")
    await kernel.turns.send(s.id, "later")
    urgent = await kernel.turns.send(s.id, "urgent")
    assert urgent.queue_item_id
    await kernel.turns.interrupt(s.id, urgent.queue_item_id)
    await wait_turns(rec, s.id, 3)
    users = [m.text for m in await kernel.store.valid_messages(s.id) if m.role == "user"]
    assert users == ["long one", "urgent", "later"]


async def test_send_while_paused_resumes_in_fifo_order(
        kernel: Kernel, fake: FakeProviderServer, rec: Recorder) -> None:
    fake.script(SLOW)
    fake.responder = echo
    s = await kernel.sessions.create_session()
    await kernel.turns.send(s.id, "long one")
    await kernel.turns.send(s.id, "queued before stop")
    await kernel.turns.stop(s.id)
    await kernel.turns.send(s.id, "typed after stop")
    await wait_turns(rec, s.id, 3)
    users = [m.text for m in await kernel.store.valid_messages(s.id) if m.role == "user"]
    assert users == ["long one", "queued before stop", "typed after stop"]


async def test_stop_during_a_tool_call_records_an_interrupted_result(
        kernel: Kernel, fake: FakeProviderServer, rec: Recorder, project: Path) -> None:
    from foya_desktop.core.events import MessageUpdated
    from foya_desktop.core.messages import ToolState
    from tests.fakeprovider import ToolCallSpec
    fake.script(Reply(tool_calls=[ToolCallSpec("run_command", {"command": "sleep 20"})]))
    s = await kernel.sessions.create_session(workdir=str(project), approval_mode=ApprovalMode.AUTO)
    await kernel.turns.send(s.id, "wait a while")
    await wait_for(lambda: any(isinstance(e, MessageUpdated) and e.message.tool_calls
                               and e.message.tool_calls[0].state == ToolState.RUNNING for e in rec.events))
    await kernel.turns.stop(s.id)
    (done,) = await wait_turns(rec, s.id, 1)
    assert done.status == "stopped"
    history = await kernel.store.valid_messages(s.id)
    assert history[1].tool_calls[0].state == ToolState.ERROR
    result = history[2].tool_result
    assert result is not None and result.is_error and "interrupted" in result.content


async def test_back_to_back_sends_never_run_two_turns_at_once(
        kernel: Kernel, fake: FakeProviderServer, rec: Recorder) -> None:
    import asyncio
    fake.responder = echo
    s = await kernel.sessions.create_session()
    receipts = await asyncio.gather(*(kernel.turns.send(s.id, f"m{i}") for i in range(4)))
    assert sum(r.message_id is not None for r in receipts) == 1
    await wait_turns(rec, s.id, 4)
    from foya_desktop.core.events import TurnFinished, TurnStarted
    order = [type(e).__name__ for e in rec.events if isinstance(e, (TurnStarted, TurnFinished))]
    assert order == ["TurnStarted", "TurnFinished"] * 4


async def test_stop_right_after_send_is_not_lost(kernel: Kernel, fake: FakeProviderServer, rec: Recorder) -> None:
    fake.script(SLOW)
    s = await kernel.sessions.create_session()
    await kernel.turns.send(s.id, "go")
    await kernel.turns.stop(s.id)
    (done,) = await wait_turns(rec, s.id, 1)
    assert done.status == "stopped"
    assert kernel.turns.phase(s.id).value == "idle"
