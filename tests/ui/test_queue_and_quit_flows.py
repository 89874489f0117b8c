"""Queue and quit flows through the real window on the real kernel (SQLite + the HTTP fake model).

These replaced fake-kernel tests that only proved a button called a method (issue 7, "the
suite checks itself"): here the kernel's own rules decide what happens — a queued message
waits, "send now" interrupts and runs the chosen item next, Stop keeps the queue paused,
Stop-and-clear empties it, Quit waits for the running reply to be stored and "Quit now"
stops it with the partial reply kept.
"""

from __future__ import annotations

from foya_desktop.core.events import PartDelta, TurnFinished
from foya_desktop.core.messages import Message
from foya_desktop.core.model import Phase
from foya_desktop.engine.kernel import Kernel
from foya_desktop.ui.main_window import MainWindow
from tests.fakeprovider import FakeProviderServer, Reply
from tests.ui.helpers import open_session, settle, wait_until

SLOW = Reply(text="word " * 400, chunk_size=5, delay_per_chunk=0.02)


def _finished(kernel: Kernel) -> list[TurnFinished]:
    done: list[TurnFinished] = []
    kernel.bus.subscribe(lambda e: done.append(e) if isinstance(e, TurnFinished) else None)
    return done


async def _stored(kernel: Kernel, sid: str) -> list[Message]:
    return await kernel.history.messages(sid)


def _send(window: MainWindow, text: str) -> None:
    window.pane.composer.input.setPlainText(text)
    window.pane.send()


async def test_queue_reorder_interrupt_then_stop_keeps_the_rest_paused_until_resumed(
        real_window: MainWindow, real_kernel: Kernel, fake_provider: FakeProviderServer) -> None:
    fake_provider.script(SLOW, SLOW)
    fake_provider.responder = lambda body: Reply(text="ok")
    sid = await open_session(real_window, real_kernel, title="Flows")
    finished = _finished(real_kernel)
    pane = real_window.pane

    _send(real_window, "first")
    await wait_until(lambda: real_kernel.turns.phase(sid) == Phase.TURN, what="first turn running")
    await wait_until(lambda: pane.composer.send_button.text() == "Queue", what="Send becomes Queue")
    for text in ("second", "third"):
        _send(real_window, text)
    await wait_until(lambda: [i.text for i in real_kernel.queue.items(sid)] == ["second", "third"],
                     what="two items in the kernel's queue")
    await wait_until(lambda: pane.queue.list.count() == 2, what="two queue rows")

    # ↑ on the second row: the kernel's queue order changes, the list follows it
    pane.queue.list.setCurrentRow(1)
    pane.queue.buttons["up"].click()
    await wait_until(lambda: [i.text for i in real_kernel.queue.items(sid)] == ["third", "second"],
                     what="reordered in the kernel")
    await wait_until(lambda: pane.queue.list.item(0).text() == "third", what="reordered on screen")

    # "send now" on "third": the running reply stops and "third" runs next, "second" still waits
    pane.queue.list.setCurrentRow(0)
    pane.queue.buttons["send_now"].click()
    await wait_until(lambda: len(finished) == 1, timeout=15, what="first turn interrupted")
    assert finished[0].status == "stopped"
    await wait_until(lambda: real_kernel.turns.phase(sid) == Phase.TURN, what="third running")
    assert [i.text for i in real_kernel.queue.items(sid)] == ["second"]

    # Stop (keep queue): "third" stops, "second" is kept and the queue is paused
    pane.composer.stop_requested.emit(True)
    await wait_until(lambda: len(finished) == 2, timeout=15, what="third stopped")
    await settle(5)
    assert finished[1].status == "stopped"
    assert real_kernel.queue.paused(sid) and [i.text for i in real_kernel.queue.items(sid)] == ["second"]
    assert real_kernel.turns.phase(sid) == Phase.IDLE
    await wait_until(pane.queue.resume_button.isVisible, what="Resume offered")

    pane.queue.resume_button.click()
    await wait_until(lambda: len(finished) == 3, timeout=15, what="second ran after resume")
    assert finished[2].status == "completed"
    users = [m.text for m in await _stored(real_kernel, sid) if m.role == "user"]
    assert users == ["first", "third", "second"]
    await wait_until(lambda: not pane.queue.isVisible(), what="queue hidden when empty")


async def test_stop_and_clear_empties_the_queue(
        real_window: MainWindow, real_kernel: Kernel, fake_provider: FakeProviderServer) -> None:
    fake_provider.script(SLOW)
    sid = await open_session(real_window, real_kernel, title="Flows")
    finished = _finished(real_kernel)
    _send(real_window, "long one")
    await wait_until(lambda: real_kernel.turns.phase(sid) == Phase.TURN, what="turn running")
    _send(real_window, "never sent")
    await wait_until(lambda: len(real_kernel.queue.items(sid)) == 1, what="queued")
    real_window.pane.composer.stop_requested.emit(False)
    await wait_until(lambda: len(finished) == 1, timeout=15, what="stopped")
    await settle(5)
    assert real_kernel.queue.items(sid) == () and not real_kernel.queue.paused(sid)
    assert [m.text for m in await _stored(real_kernel, sid) if m.role == "user"] == ["long one"]


async def test_quit_waits_for_the_running_reply_to_be_stored(
        real_window: MainWindow, real_kernel: Kernel, fake_provider: FakeProviderServer) -> None:
    """Without a tray the window stays up while quitting waits: a hidden app would have no way back."""
    fake_provider.script(Reply(text="word " * 120, chunk_size=5, delay_per_chunk=0.02))
    sid = await open_session(real_window, real_kernel, title="Flows")
    _send(real_window, "finish this before quitting")
    await wait_until(lambda: real_kernel.turns.phase(sid) == Phase.TURN, what="turn running")
    quit_done: list[int] = []
    real_window.quit_controller.finished.connect(lambda: quit_done.append(1))
    real_window._actions["quit"].trigger()
    await settle(5)
    assert quit_done == [] and real_window.isVisible()
    assert "Finishing running sessions before quitting (1 left)" in real_window.statusBar().currentMessage()
    await wait_until(lambda: quit_done == [1], timeout=30, what="quit after the turn was stored")
    replies = [m for m in await _stored(real_kernel, sid) if m.role == "assistant"]
    assert len(replies) == 1 and str(replies[0].status) == "complete"
    assert replies[0].text.count("word") == 120


async def test_quit_now_stops_the_running_reply_and_keeps_what_streamed(
        real_window: MainWindow, real_kernel: Kernel, fake_provider: FakeProviderServer) -> None:
    fake_provider.script(SLOW)
    sid = await open_session(real_window, real_kernel, title="Flows")
    finished = _finished(real_kernel)
    deltas: list[PartDelta] = []
    real_kernel.bus.subscribe(lambda e: deltas.append(e) if isinstance(e, PartDelta) else None)
    _send(real_window, "a long answer please")
    await wait_until(lambda: len(deltas) > 3, what="some streamed text")
    quit_done: list[int] = []
    controller = real_window.quit_controller
    controller.finished.connect(lambda: quit_done.append(1))
    controller.request_quit()
    await settle(5)
    assert quit_done == [] and controller.quit_now_action.isVisible()
    controller.force_quit()
    await wait_until(lambda: quit_done == [1], timeout=15, what="quit now")
    assert [f.status for f in finished] == ["stopped"]
    replies = [m for m in await _stored(real_kernel, sid) if m.role == "assistant"]
    assert len(replies) == 1 and str(replies[0].status) == "interrupted" and replies[0].text.startswith("word")
