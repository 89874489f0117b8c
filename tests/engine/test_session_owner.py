"""The session owner: the one writer of a session's runtime state (issue 7).

Real kernel, real SQLite, real HTTP to the fake provider. ``hold`` refuses
while busy and keeps the session busy; the idle condition wakes waiters
without polling; ``stop`` cancels and waits; the queue's rules live beside it.
"""

from __future__ import annotations

import asyncio

import pytest

from foya_desktop.core.errors import InvalidOperation
from foya_desktop.core.events import PartDelta, PhaseChanged, QueueChanged
from foya_desktop.core.model import Phase
from foya_desktop.engine.kernel import Kernel
from foya_desktop.engine.session.owner import OperationStopped
from tests.fakeprovider import FakeProviderServer, Reply, last_user_text
from tests.helpers.engine import Recorder, wait_for, wait_turns

SLOW = Reply(text="word " * 200, chunk_size=5, delay_per_chunk=0.02)


def echo(body: dict[str, object]) -> Reply:
    return Reply(text=f"answer to {last_user_text(body)}")


async def _spin() -> None:
    """Let every ready callback run (a waiter that could wake, would)."""
    for _ in range(20):
        await asyncio.sleep(0)


async def test_hold_refuses_while_a_turn_runs(kernel: Kernel, fake: FakeProviderServer, rec: Recorder) -> None:
    fake.script(SLOW)
    s = await kernel.sessions.create_session()
    await kernel.turns.send(s.id, "long one")
    owner = kernel.turn_manager.owner(s.id)
    assert owner.busy
    with pytest.raises(InvalidOperation, match="Stop the running turn first, then rewind"):
        async with owner.hold("rewind"):
            raise AssertionError("the hold must not be granted")
    await kernel.turns.stop(s.id, keep_queue=False)
    await wait_turns(rec, s.id, 1)


async def test_hold_keeps_the_session_busy_then_the_queue_moves_on(
        kernel: Kernel, fake: FakeProviderServer, rec: Recorder) -> None:
    """F17: a message sent during an operation waits in the queue and goes when the hold ends."""
    fake.responder = echo
    s = await kernel.sessions.create_session()
    owner = kernel.turn_manager.owner(s.id)
    async with owner.hold("compact it", Phase.COMPACTION):
        assert owner.busy and kernel.turns.phase(s.id) == Phase.COMPACTION
        receipt = await kernel.turns.send(s.id, "sent meanwhile")
        assert receipt.message_id is None and receipt.queue_item_id
        with pytest.raises(InvalidOperation, match="busy"):
            async with owner.hold("rewind"):
                pass
    (done,) = await wait_turns(rec, s.id, 1)
    assert done.status == "completed"
    assert [m.text for m in await kernel.store.valid_messages(s.id)] == [
        "sent meanwhile", "answer to sent meanwhile"]
    phases = [e.phase for e in rec.of(PhaseChanged) if e.session_id == s.id]  # type: ignore[attr-defined]
    assert phases[:2] == ["compaction", "idle"] and phases[-1] == "idle"


async def test_idle_condition_wakes_when_the_hold_ends(kernel: Kernel) -> None:
    s = await kernel.sessions.create_session()
    owner = kernel.turn_manager.owner(s.id)
    async with owner.hold("delete it"):
        waiter = asyncio.ensure_future(kernel.turns.wait_idle())
        await _spin()
        assert not waiter.done()  # busy: nobody woke it
    await waiter
    assert owner.idle


async def test_idle_condition_wakes_when_the_turn_and_queue_are_done(
        kernel: Kernel, fake: FakeProviderServer, rec: Recorder) -> None:
    fake.script(Reply(text="first " * 30, chunk_size=4, delay_per_chunk=0.01))
    fake.responder = echo
    s = await kernel.sessions.create_session()
    await kernel.turns.send(s.id, "first")
    await kernel.turns.send(s.id, "second")
    await kernel.turns.wait_idle()
    assert len(await wait_turns(rec, s.id, 2)) == 2  # both already finished when wait_idle returned
    assert kernel.turns.phase(s.id) == Phase.IDLE and kernel.queue.items(s.id) == ()
    assert all(x.phase == Phase.IDLE for x in await kernel.sessions.list_sessions())


async def test_stop_cancels_held_work_and_waits(kernel: Kernel) -> None:
    s = await kernel.sessions.create_session()
    owner = kernel.turn_manager.owner(s.id)
    started = asyncio.Event()

    async def forever() -> None:
        started.set()
        await asyncio.Event().wait()

    async def operation() -> None:
        async with owner.hold("compact it", Phase.COMPACTION) as held:
            await held.run(forever(), stopped="It was stopped.")

    op = asyncio.ensure_future(operation())
    await started.wait()
    await owner.stop()
    assert not owner.busy and owner.phase == Phase.IDLE
    with pytest.raises(OperationStopped, match=r"It was stopped\."):
        await op


async def test_a_stop_before_the_held_work_starts_is_not_lost(kernel: Kernel) -> None:
    """A stop that lands while a hold is still getting ready (showing its phase, before its work
    runs) stops that work: it never starts, and the stop returns once the session is free."""
    s = await kernel.sessions.create_session()
    owner = kernel.turn_manager.owner(s.id)
    ran: list[str] = []

    async def work() -> str:
        ran.append("work")
        return "done"

    async def operation() -> str:
        async with owner.hold("compact it", Phase.COMPACTION) as held:
            await stop_sent.wait()
            return await held.run(work(), stopped="Compaction was stopped; nothing was changed.")

    stop_sent = asyncio.Event()
    job = asyncio.create_task(operation())
    await wait_for(lambda: owner.phase == Phase.COMPACTION)
    stopping = asyncio.create_task(kernel.turns.stop(s.id))
    await _spin()
    stop_sent.set()
    with pytest.raises(OperationStopped, match="stopped"):
        await job
    await stopping
    assert ran == [] and not owner.busy and kernel.turns.phase(s.id) == Phase.IDLE


async def test_stop_keeps_the_queue_paused_and_send_resumes_it(
        kernel: Kernel, fake: FakeProviderServer, rec: Recorder) -> None:
    """F19: stop keeps the queue (paused); sending again to the idle session lets it go."""
    fake.script(SLOW)
    fake.responder = echo
    s = await kernel.sessions.create_session()
    await kernel.turns.send(s.id, "long one")
    queued = await kernel.turns.send(s.id, "queued")
    await kernel.turns.stop(s.id)
    assert kernel.queue.paused(s.id) and [i.id for i in kernel.queue.items(s.id)] == [queued.queue_item_id]
    await kernel.turns.wait_idle()  # a paused queue is idle: it waits for the person
    later = await kernel.turns.send(s.id, "later")
    assert later.queue_item_id  # others wait before it
    await wait_turns(rec, s.id, 3)
    users = [m.text for m in await kernel.store.valid_messages(s.id) if m.role == "user"]
    assert users == ["long one", "queued", "later"]


async def test_stop_and_clear_and_interrupt(kernel: Kernel, fake: FakeProviderServer, rec: Recorder) -> None:
    """F19: interrupt stops the turn and dispatches the chosen item first; a cleared queue is empty."""
    fake.script(SLOW, SLOW)
    fake.responder = echo
    s = await kernel.sessions.create_session()
    await kernel.turns.send(s.id, "long one")
    await kernel.turns.send(s.id, "a")
    b = await kernel.turns.send(s.id, "b")
    assert b.queue_item_id
    await kernel.turns.interrupt(s.id, b.queue_item_id)
    await wait_for(lambda: len([m for m in rec.of(QueueChanged) if m.session_id == s.id]) >= 4)
    assert [i.text for i in kernel.queue.items(s.id)] == ["a"]
    await kernel.turns.stop(s.id, keep_queue=False)
    assert kernel.queue.items(s.id) == () and not kernel.queue.paused(s.id)
    await kernel.turns.wait_idle()
    users = [m.text for m in await kernel.store.valid_messages(s.id) if m.role == "user"]
    assert users == ["long one", "b"]


async def test_resume_queue_dispatches_the_next_item(
        kernel: Kernel, fake: FakeProviderServer, rec: Recorder) -> None:
    fake.script(SLOW)
    fake.responder = echo
    s = await kernel.sessions.create_session()
    await kernel.turns.send(s.id, "long one")
    await kernel.turns.send(s.id, "next")
    await wait_for(lambda: any(isinstance(e, PartDelta) for e in rec.events))
    await kernel.turns.stop(s.id)
    kernel.queue.resume(s.id)
    assert not kernel.queue.paused(s.id)
    await kernel.turns.wait_idle()
    assert [m.text for m in await kernel.store.valid_messages(s.id)][-1] == "answer to next"


def test_question_unanswered_joins_the_error_tree() -> None:
    """Issue 7: every error the engine raises is a ``FoyaError`` (the window catches that one)."""
    from foya_desktop.core.errors import FoyaError
    from foya_desktop.engine.asks.questions import QuestionUnanswered

    error = QuestionUnanswered("expired")
    assert isinstance(error, FoyaError) and error.reason == "expired"


async def test_refusals_carry_a_stable_code_and_parameters(kernel: Kernel) -> None:
    """Issue 7: an engine error has a code and parameters besides its English default text."""
    s = await kernel.sessions.create_session()
    owner = kernel.turn_manager.owner(s.id)
    async with owner.hold("delete it"):
        with pytest.raises(InvalidOperation) as refused:
            async with owner.hold("rewind"):
                pass
    assert refused.value.code == "session_busy"
    assert refused.value.params == {"session_id": s.id, "operation": "rewind"}
    assert refused.value.default_text == str(refused.value) and "then rewind" in str(refused.value)
    from foya_desktop.core.errors import NotFound

    assert NotFound("x").code == "not_found" and OperationStopped("y").code == "operation_stopped"
