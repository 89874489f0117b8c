"""The real window on the real kernel (SQLite) talking HTTP to the fake provider."""

from __future__ import annotations

from pathlib import Path

from foya_desktop.core.events import PartDelta, StreamStarted, TurnFinished
from foya_desktop.core.model import VP, Phase
from foya_desktop.engine.kernel import Kernel
from foya_desktop.ui.main_window import MainWindow
from foya_desktop.ui.timeline.rows import MessageRow, StreamRow
from tests.fakeprovider import FakeProviderServer, Reply, ToolCallSpec, system_prompt
from tests.ui.helpers import open_session, settle, wait_until


def _finished_turns(kernel: Kernel) -> list[TurnFinished]:
    done: list[TurnFinished] = []
    kernel.bus.subscribe(lambda e: done.append(e) if isinstance(e, TurnFinished) else None)
    return done


async def test_typing_a_message_streams_a_reply_into_the_timeline(
        real_window: MainWindow, real_kernel: Kernel, fake_provider: FakeProviderServer, shots: Path) -> None:
    fake_provider.script(Reply(text="Hello! Here is a **streamed** reply with a list:\n\n- one\n- two\n",
                               chunk_size=4, delay_per_chunk=0.01))
    sid = await open_session(real_window, real_kernel, title="First steps")
    finished = _finished_turns(real_kernel)
    pane = real_window.pane
    pane.composer.input.setPlainText("hello there")
    pane.composer.send_button.click()
    saw_stream: list[bool] = []
    pane.timeline_model.rowsInserted.connect(
        lambda *_: saw_stream.append(any(isinstance(pane.timeline_model.row_at(i), StreamRow)
                                         for i in range(pane.timeline_model.rowCount()))))
    await wait_until(lambda: finished, timeout=15, what="turn finished")
    assert finished[0].status == "completed", finished[0].error
    await wait_until(lambda: real_kernel.turns.phase(sid) == Phase.IDLE)
    await settle(5)
    model = pane.timeline_model
    rows = [model.row_at(i) for i in range(model.rowCount())]
    assert [(r.message.role, r.message.text[:6]) for r in rows if isinstance(r, MessageRow)] == [
        ("user", "hello "), ("assistant", "Hello!")]
    assert any(saw_stream)
    assert pane.composer.send_button.text() == "Send"
    real_window.grab().save(str(shots / "e2e_reply.png"))


async def test_two_vps_and_a_tool_call_render_as_blocks(
        real_window: MainWindow, real_kernel: Kernel, fake_provider: FakeProviderServer, tmp_path: Path,
        shots: Path) -> None:
    project = tmp_path / "proj"
    project.mkdir()
    (project / "README.md").write_text("# Demo\nHello from the readme.\n")
    await real_kernel.vps.add_vp(VP("linus", "Linus", "Linus the implementer", "You implement."))
    await real_kernel.vps.add_vp(VP("martin", "Martin", "Martin the reviewer", "You review."))
    replies = {"Linus": [Reply(tool_calls=[ToolCallSpec("read_file", {"path": "README.md"})], delay_per_chunk=0.01),
                         Reply(text="The readme says *hello*.", delay_per_chunk=0.01)],
               "Martin": [Reply(text="Nothing to review yet.", delay_per_chunk=0.02)]}

    def respond(body):  # type: ignore[no-untyped-def]
        prompt = system_prompt(body)
        for name, queue in replies.items():
            if f"Your name in this session is {name} " in prompt and queue:
                return queue.pop(0)
        return Reply(text="?")

    fake_provider.responder = respond
    sid = await open_session(real_window, real_kernel, title="Two VPs", workdir=str(project),
                      roster=["linus", "martin"], default_vp="linus")
    finished = _finished_turns(real_kernel)
    pane = real_window.pane
    pane.composer.input.setPlainText("@Linus @Martin what does the readme say?")
    pane.send()
    await wait_until(lambda: finished, timeout=15, what="turn finished")
    assert finished[0].status == "completed", finished[0].error
    await wait_until(lambda: real_kernel.turns.phase(sid) == Phase.IDLE)
    await settle(5)
    model = pane.timeline_model
    rows = [model.row_at(i) for i in range(model.rowCount())]
    assert not any(isinstance(r, StreamRow) for r in rows)
    speakers = [r.message.speaker for r in rows if isinstance(r, MessageRow)]
    assert speakers.count("linus") == 2 and speakers.count("martin") == 1
    call_rows = [r for r in rows if isinstance(r, MessageRow) and r.message.tool_calls]
    assert call_rows and call_rows[0].result_for(call_rows[0].message.tool_calls[0].call_id) is not None
    real_window.grab().save(str(shots / "e2e_two_vps.png"))


def _user_texts(model: object) -> list[str]:
    rows = [model.row_at(i) for i in range(model.rowCount())]  # type: ignore[attr-defined]
    return [r.message.text for r in rows if isinstance(r, MessageRow) and r.message.role == "user"]


async def test_stop_then_queue_two_reorder_and_they_run_in_the_new_order(
        real_window: MainWindow, real_kernel: Kernel, fake_provider: FakeProviderServer, shots: Path) -> None:
    slow = Reply(text="word " * 300, chunk_size=5, delay_per_chunk=0.02)
    fake_provider.script(slow, slow)
    fake_provider.responder = lambda body: Reply(text="ok")
    sid = await open_session(real_window, real_kernel, title="Queue")
    finished = _finished_turns(real_kernel)
    pane = real_window.pane
    composer = pane.composer

    # a long reply, stopped from the Stop button (keeps the queue)
    deltas: list[PartDelta] = []
    real_kernel.bus.subscribe(lambda e: deltas.append(e) if isinstance(e, PartDelta) else None)
    composer.input.setPlainText("tell me a long story")
    pane.send()
    await wait_until(lambda: real_kernel.turns.phase(sid) == Phase.TURN, what="turn running")
    await wait_until(lambda: len(deltas) > 3, what="some streamed text")
    await wait_until(lambda: any(isinstance(pane.timeline_model.row_at(i), StreamRow)
                                 for i in range(pane.timeline_model.rowCount())), what="streaming row")
    composer.stop_button.click()
    await wait_until(lambda: len(finished) == 1, timeout=15, what="stopped turn")
    assert finished[0].status == "stopped"
    await settle(5)
    interrupted = [pane.timeline_model.row_at(i) for i in range(pane.timeline_model.rowCount())]
    assert any(isinstance(r, MessageRow) and str(r.message.status) == "interrupted" for r in interrupted)

    # another long turn; two messages typed meanwhile wait in the queue
    composer.input.setPlainText("second long one")
    pane.send()
    await wait_until(lambda: real_kernel.turns.phase(sid) == Phase.TURN, what="second turn running")
    for text in ("first queued", "second queued"):
        composer.input.setPlainText(text)
        pane.send()
    await wait_until(lambda: pane.queue.list.count() == 2, what="two queued rows")
    assert [i.text for i in pane.queue.items()] == ["first queued", "second queued"]
    assert pane.queue.isVisible()
    real_window.grab().save(str(shots / "e2e_queue.png"))

    # move the second one up with the ↑ button
    pane.queue.list.setCurrentRow(1)
    pane.queue.buttons["up"].click()
    await wait_until(lambda: [i.text for i in pane.queue.items()] == ["second queued", "first queued"],
                     what="reordered queue")
    await wait_until(lambda: len(finished) == 4, timeout=30, what="all turns")
    await settle(5)
    assert [f.status for f in finished] == ["stopped", "completed", "completed", "completed"]
    assert _user_texts(pane.timeline_model) == [
        "tell me a long story", "second long one", "second queued", "first queued"]
    assert not pane.queue.isVisible()


async def test_a_streamed_reply_and_its_stored_message_are_one_row_by_id(
        real_window: MainWindow, real_kernel: Kernel, fake_provider: FakeProviderServer, tmp_path: Path,
        shots: Path) -> None:
    """Carried identity (issue 7): the row that streams a reply is the row of the stored message.

    The engine names the stream by the id its message will have; the timeline replaces that
    row in place (no row removed) when the message with that id arrives, for the tool-call
    step and for the text step alike.
    """
    project = tmp_path / "proj"
    project.mkdir()
    (project / "README.md").write_text("# Demo\nHello from the readme.\n")
    fake_provider.script(
        Reply(tool_calls=[ToolCallSpec("read_file", {"path": "README.md"})], delay_per_chunk=0.01),
        Reply(text="The readme greets you. " * 40, chunk_size=6, delay_per_chunk=0.02))
    sid = await open_session(real_window, real_kernel, title="Carried ids", workdir=str(project))
    finished = _finished_turns(real_kernel)
    started: list[StreamStarted] = []
    real_kernel.bus.subscribe(lambda e: started.append(e) if isinstance(e, StreamStarted) else None)
    pane = real_window.pane
    model = pane.timeline_model
    pane.composer.input.setPlainText("what does the readme say?")
    pane.send()

    def streaming_text() -> tuple[int, StreamRow] | None:
        for i in range(model.rowCount()):
            row = model.row_at(i)
            if isinstance(row, StreamRow) and len(row.body.text) > 60:
                return i, row
        return None

    await wait_until(lambda: streaming_text() is not None, timeout=15, what="the reply streaming")
    found = streaming_text()
    assert found is not None
    index, stream = found
    assert [e.message_id for e in started] == [started[0].message_id, stream.message_id]
    assert isinstance(model.row_at(index - 1), MessageRow) and model.row_at(index - 1).key == started[0].message_id
    real_window.grab().save(str(shots / "e2e_carried_id_streaming.png"))
    removed: list[int] = []
    model.rowsRemoved.connect(lambda _parent, first, _last: removed.append(first))

    await wait_until(lambda: finished, timeout=20, what="turn finished")
    assert finished[0].status == "completed", finished[0].error
    await settle(5)
    row = model.row_at(index)
    assert isinstance(row, MessageRow) and row.message.id == stream.message_id
    assert row.message.text.startswith("The readme greets you.")
    assert removed == [] and not any(isinstance(model.row_at(i), StreamRow) for i in range(model.rowCount()))
    stored = await real_kernel.history.history_page(sid)
    assert stream.message_id in [m.id for m in stored]
    real_window.grab().save(str(shots / "e2e_carried_id_stored.png"))
