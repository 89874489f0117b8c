"""The main window on a fake kernel: wiring from engine events and widgets to kernel calls."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QApplication, QDialog, QDialogButtonBox

from foya_desktop.core.events import MessageAdded, PartDelta, StreamEnded, StreamStarted, TurnFinished
from foya_desktop.core.model import Connection, Phase, ProviderKind
from foya_desktop.ui.dialogs.connections import ConnectionsDialog
from foya_desktop.ui.dialogs.new_session import NewSessionDialog
from foya_desktop.ui.main_window import MainWindow
from foya_desktop.ui.timeline.rows import MessageRow, StreamRow
from tests.ui.fakes import FakeKernel
from tests.ui.helpers import reply, settle, wait_signal, wait_until


def _dialog[D: QDialog](kind: type[D]) -> D | None:
    return next((w for w in QApplication.topLevelWidgets() if isinstance(w, kind) and w.isVisible()), None)


async def _open_session(window: MainWindow, kernel: FakeKernel, **kw: object):  # type: ignore[no-untyped-def]
    session = await kernel.create_session(title="Demo", **kw)  # type: ignore[arg-type]
    await settle()
    window.tree_view.select_session(session.id)
    await wait_until(lambda: window.pane.session is not None and window.pane.session.id == session.id)
    await window.runner.drain()
    return session


async def test_first_start_shows_the_welcome_page(fake_window: MainWindow, shots: Path) -> None:
    assert fake_window.stack.currentWidget() is fake_window.welcome
    assert fake_window.windowTitle() == "Foya"
    fake_window.grab().save(str(shots / "test_welcome.png"))


async def test_new_session_dialog_creates_and_opens_the_session(fake_window: MainWindow,
                                                               fake_kernel: FakeKernel) -> None:
    fake_window._actions["new"].trigger()
    await wait_until(lambda: _dialog(NewSessionDialog) is not None, what="dialog")
    dialog = _dialog(NewSessionDialog)
    assert dialog is not None
    dialog.title.setText("Refactor the parser")
    dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).click()
    await wait_until(lambda: fake_kernel.called("create_session"), what="create_session")
    await wait_until(lambda: fake_window.pane.session is not None)
    assert fake_kernel.called("create_session")[0][:2] == ("Refactor the parser", None)
    assert fake_window.stack.currentWidget() is fake_window.pane
    assert fake_window.windowTitle().startswith("Refactor the parser")


async def test_sending_while_busy_queues_and_queue_buttons_reach_the_kernel(
        fake_window: MainWindow, fake_kernel: FakeKernel) -> None:
    session = await _open_session(fake_window, fake_kernel)
    pane = fake_window.pane
    pane.composer.input.setPlainText("first")
    pane.send()
    await wait_until(lambda: fake_kernel.called("send"))
    await wait_until(lambda: pane.timeline_model.rowCount() == 1, what="user message row")
    fake_kernel.set_phase(session.id, Phase.TURN)
    await settle()
    assert pane.composer.send_button.text() == "Queue"
    for text in ("second", "third"):
        pane.composer.input.setPlainText(text)
        pane.send()
        await fake_window.runner.drain()
    await settle()
    assert pane.queue.isVisible() and pane.queue.list.count() == 2
    pane.queue.list.setCurrentRow(1)
    pane.queue.buttons["up"].click()
    item_id = fake_kernel.queues[session.id][0].id
    assert fake_kernel.called("queue_move") == [(session.id, fake_kernel.queues[session.id][0].id, 0)]
    await settle()
    assert pane.queue.list.item(0).text() == "third"
    pane.queue.buttons["send_now"].click()
    await fake_window.runner.drain()
    assert fake_kernel.called("interrupt") == [(session.id, item_id)]
    pane.composer.stop_requested.emit(False)
    await fake_window.runner.drain()
    assert fake_kernel.called("stop") == [(session.id, False)]


async def test_streamed_reply_becomes_a_stored_message(fake_window: MainWindow, fake_kernel: FakeKernel) -> None:
    session = await _open_session(fake_window, fake_kernel)
    model = fake_window.pane.timeline_model
    publish = fake_kernel.publish
    publish(StreamStarted(session.id, "a1", "omni", "t1"))
    for word in ["Streaming", "works", "in", "**real", "time**."]:
        publish(PartDelta(session.id, "a1", "omni", "text", word + " "))
    await wait_signal(fake_window.bridge.stream_delta)
    await settle()
    row = model.row_at(0)
    assert isinstance(row, StreamRow) and row.body.text.startswith("Streaming works")
    publish(StreamEnded(session.id, "a1", "omni"))
    (stored,) = fake_kernel.add_messages(session.id, [reply("Streaming works in **real time**.", mid="a1",
                                                            turn_id="t1")])
    publish(MessageAdded(session.id, stored))
    publish(TurnFinished(session.id, "t1", "completed"))
    await settle()
    assert model.rowCount() == 1
    assert isinstance(model.row_at(0), MessageRow)


async def test_switching_sessions_mid_stream_keeps_the_text(fake_window: MainWindow,
                                                           fake_kernel: FakeKernel) -> None:
    first = await _open_session(fake_window, fake_kernel)
    fake_kernel.publish(StreamStarted(first.id, "st1", "omni", "t1"))
    fake_kernel.publish(PartDelta(first.id, "st1", "omni", "text", "Half of a reply"))
    await wait_signal(fake_window.bridge.stream_delta)
    await _open_session(fake_window, fake_kernel)
    fake_kernel.publish(PartDelta(first.id, "st1", "omni", "text", " and the rest."))
    await settle()
    fake_window.tree_view.select_session(first.id)
    await wait_until(lambda: fake_window.pane.session is not None and fake_window.pane.session.id == first.id)
    await fake_window.runner.drain()
    row = fake_window.pane.timeline_model.row_at(0)
    assert isinstance(row, StreamRow) and row.body.text == "Half of a reply and the rest."


async def test_quit_waits_for_running_turns(fake_window: MainWindow, fake_kernel: FakeKernel) -> None:
    """Without a tray the window stays up while quitting waits: a hidden app would have no way back."""
    session = await _open_session(fake_window, fake_kernel)
    fake_kernel.set_phase(session.id, Phase.TURN)
    finished: list[int] = []
    fake_window.quit_controller.finished.connect(lambda: finished.append(1))
    fake_window._actions["quit"].trigger()
    await settle(10)
    assert finished == [] and fake_window.isVisible()
    assert "Finishing running sessions before quitting (1 left)" in fake_window.statusBar().currentMessage()
    fake_kernel.set_phase(session.id, Phase.IDLE)
    await wait_until(lambda: finished == [1], what="quit after the turn")


async def test_close_without_tray_means_quit(fake_window: MainWindow) -> None:
    finished: list[int] = []
    fake_window.quit_controller.finished.connect(lambda: finished.append(1))
    fake_window.close()
    await wait_until(lambda: finished == [1])


async def test_connections_dialog_explains_missing_keyring(fake_window: MainWindow,
                                                          fake_kernel: FakeKernel) -> None:
    fake_kernel.problem = "No secure keyring was found on this system."
    fake_window._actions["connections"].trigger()
    await wait_until(lambda: _dialog(ConnectionsDialog) is not None)
    dialog = _dialog(ConnectionsDialog)
    assert dialog is not None
    assert not dialog.api_key.isEnabled() and "No secure keyring" in dialog.problem.text()
    dialog.name.setText("local")
    dialog.kind.setCurrentIndex(0)
    dialog.base_url.setText("http://127.0.0.1:11434/v1")
    dialog.model.setText("qwen3")
    dialog.key_env.setText("LOCAL_KEY")
    await dialog.save(dialog.form_connection(), None)  # type: ignore[arg-type]
    assert fake_kernel.called("add_connection") == [
        (Connection("local", ProviderKind.OPENAI, "http://127.0.0.1:11434/v1", "qwen3", "LOCAL_KEY"), None)]
    assert dialog.list.count() == 1
    dialog.reject()
    await fake_window.runner.drain()
    assert fake_window.pane.status.connection.findText("local") >= 0


async def test_a_failed_turn_says_why(fake_window: MainWindow, fake_kernel: FakeKernel) -> None:
    session = await _open_session(fake_window, fake_kernel)
    fake_kernel.publish(TurnFinished(session.id, "t1", "error", error="No API key for connection 'x'."))
    await settle()
    assert "No API key" in fake_window.pane.status.vp_label.text()
