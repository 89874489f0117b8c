"""The main window: how engine events render (fake kernel, scripted events) and one flow on the real kernel."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QApplication, QDialog, QDialogButtonBox

from foya_desktop.core.events import MessageAdded, PartDelta, StreamEnded, StreamStarted, TurnFinished
from foya_desktop.engine.kernel import Kernel
from foya_desktop.ui.dialogs.new_session import NewSessionDialog
from foya_desktop.ui.main_window import MainWindow
from foya_desktop.ui.timeline.rows import MessageRow, StreamRow
from tests.ui.fakes import FakeKernel
from tests.ui.helpers import reply, settle, wait_signal, wait_until


def _dialog[D: QDialog](kind: type[D]) -> D | None:
    return next((w for w in QApplication.topLevelWidgets() if isinstance(w, kind) and w.isVisible()), None)


async def _open_session(window: MainWindow, kernel: FakeKernel, **kw: object):  # type: ignore[no-untyped-def]
    session = await kernel.sessions.create_session(title="Demo", **kw)  # type: ignore[arg-type]
    await settle()
    window.tree_view.select_session(session.id)
    await wait_until(lambda: window.pane.session is not None and window.pane.session.id == session.id)
    await window.runner.drain()
    return session


async def test_first_start_shows_the_welcome_page(fake_window: MainWindow, shots: Path) -> None:
    assert fake_window.stack.currentWidget() is fake_window.welcome
    assert fake_window.windowTitle() == "Foya"
    fake_window.grab().save(str(shots / "test_welcome.png"))


async def test_new_session_dialog_creates_and_opens_the_session(real_window: MainWindow,
                                                               real_kernel: Kernel) -> None:
    """On the real kernel: the dialog's title becomes a stored, unbound session that opens."""
    real_window._actions["new"].trigger()
    await wait_until(lambda: _dialog(NewSessionDialog) is not None, what="dialog")
    dialog = _dialog(NewSessionDialog)
    assert dialog is not None
    dialog.title.setText("Refactor the parser")
    dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).click()
    await wait_until(lambda: real_window.pane.session is not None, what="session opened")
    (stored,) = await real_kernel.sessions.list_sessions()
    assert (stored.title, stored.workdir, stored.project_id) == ("Refactor the parser", "", None)
    assert real_window.pane.session is not None and real_window.pane.session.id == stored.id
    assert real_window.stack.currentWidget() is real_window.pane
    assert real_window.windowTitle().startswith("Refactor the parser")


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


async def test_close_without_tray_means_quit(fake_window: MainWindow) -> None:
    finished: list[int] = []
    fake_window.quit_controller.finished.connect(lambda: finished.append(1))
    fake_window.close()
    await wait_until(lambda: finished == [1])


async def test_a_failed_turn_says_why(fake_window: MainWindow, fake_kernel: FakeKernel) -> None:
    session = await _open_session(fake_window, fake_kernel)
    fake_kernel.publish(TurnFinished(session.id, "t1", "error", error="No API key for connection 'x'."))
    await settle()
    assert "No API key" in fake_window.pane.status.vp_label.text()
