"""What the window shows when a local server fails a turn, cuts a reply or has a small window, on the
real kernel with the HTTP fake model: a failed turn's row with its reason and *Retry*, a cut reply
marked so with *Continue*, and the server's context window in the connection dialog.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest

from foya_desktop.core.messages import MessageStatus
from foya_desktop.engine.kernel import Kernel
from foya_desktop.engine.turn.failures import CONTINUE_TEXT
from foya_desktop.ui.dialogs.connections import ConnectionsDialog
from foya_desktop.ui.main_window import MainWindow
from foya_desktop.ui.timeline import summaries
from foya_desktop.ui.timeline.model import ROW_ROLE
from foya_desktop.ui.timeline.rows import MessageRow
from tests.fakeprovider import FakeProviderServer, Fault, Reply
from tests.fakeprovider.local_server import LlamaServer
from tests.ui.helpers import Events, open_session, settle, wait_until


async def _button_of(window: MainWindow, status: MessageStatus) -> tuple[MessageRow, QPoint]:
    """The row of the last reply with ``status`` and where its button is on the viewport."""
    view, model = window.pane.timeline_view, window.pane.timeline_model
    await wait_until(lambda: any(isinstance(r := model.index(i, 0).data(ROW_ROLE), MessageRow)
                                 and r.message.status == status for i in range(model.rowCount())),
                     5, f"a {status} row")
    index = max(i for i in range(model.rowCount()) if isinstance(r := model.index(i, 0).data(ROW_ROLE), MessageRow)
                and r.message.status == status)
    row = model.index(index, 0).data(ROW_ROLE)
    view.scrollTo(model.index(index, 0))
    await wait_until(lambda: view.timeline_delegate.action_buttons(row.key), 5, "the button painted")
    ((box, message_id),) = view.timeline_delegate.action_buttons(row.key)
    assert message_id == row.message.id
    return row, view.row_rect(index).topLeft() + box.center()


async def test_a_turn_refused_before_any_text_shows_its_reason_and_retry_sends_it_again(
        real_window: MainWindow, real_kernel: Kernel, fake_provider: FakeProviderServer, shots: Path) -> None:
    """Before: only the person's message stayed; the reason was in the status line until the next turn."""
    fake_provider.script(Reply(fault=Fault.status(400, body={"error": {
        "code": 400, "message": "the request exceeds the available batch size", "type": "invalid_request_error"}})),
        Reply(text="Answered on the second try."))
    sid = await open_session(real_window, real_kernel, title="Refused")
    events = Events(real_kernel)
    real_window.pane.composer.input.setPlainText("what is 2+2?")
    real_window.pane.send()
    assert (await events.turns(1, sid))[0].status == "error"
    await settle(5)
    row, point = await _button_of(real_window, MessageStatus.ERROR)
    assert "the request exceeds the available batch size" in (summaries.status_caption(row.message) or "")
    real_window.grab().save(str(shots / "failed-turn-retry.png"))
    QTest.mouseClick(real_window.pane.timeline_view.viewport(), Qt.MouseButton.LeftButton,
                     Qt.KeyboardModifier.NoModifier, point)
    assert (await events.turns(2, sid))[1].status == "completed"
    assert fake_provider.requests[-1].body["messages"][-1] == {"role": "user", "content": "what is 2+2?"}


async def test_a_reply_cut_at_the_length_limit_is_marked_and_continue_asks_for_the_rest(
        real_window: MainWindow, real_kernel: Kernel, fake_provider: FakeProviderServer, shots: Path) -> None:
    """Before: the cut reply looked complete, with nothing to say it stopped mid-sentence."""
    fake_provider.script(Reply(text="The three steps are: first, open the", finish_reason="length"),
                         Reply(text="file; second, edit it; third, save it."))
    sid = await open_session(real_window, real_kernel, title="Cut")
    events = Events(real_kernel)
    real_window.pane.composer.input.setPlainText("list the steps")
    real_window.pane.send()
    assert (await events.turns(1, sid))[0].status == "error"
    await settle(5)
    row, point = await _button_of(real_window, MessageStatus.INTERRUPTED)
    assert summaries.status_caption(row.message) == "Interrupted — this reply was cut off (at the length limit)"
    assert "cut off at the length limit" in real_window.pane.status.vp_label.text()
    real_window.grab().save(str(shots / "cut-reply-continue.png"))
    QTest.mouseClick(real_window.pane.timeline_view.viewport(), Qt.MouseButton.LeftButton,
                     Qt.KeyboardModifier.NoModifier, point)
    assert (await events.turns(2, sid))[1].status == "completed"
    assert fake_provider.requests[-1].body["messages"][-1] == {"role": "user", "content": CONTINUE_TEXT}


async def test_the_connection_dialog_shows_the_window_the_server_states(
        real_window: MainWindow, real_kernel: Kernel, fake_provider: FakeProviderServer, shots: Path) -> None:
    """Before: the dialog had no window at all, and saving a connection set it back to 128,000."""
    fake_provider.llama = LlamaServer(n_ctx=4096, supports_tools=False)
    fake_provider.script(Reply(text="p"))
    dialog = ConnectionsDialog(real_kernel, real_window.runner, real_window)
    await dialog.refresh(select="fake")
    assert dialog.context_window.text() == "128000"
    conn = dialog.form_connection()
    assert conn is not None
    assert await dialog.test(conn, None)
    assert dialog.context_window.text() == "4096"
    assert "context window is 4,096 tokens" in dialog.message.text()
    assert "does not pass tools to the model; tools are off" in dialog.message.text()
    dialog.show()
    await settle()
    dialog.grab().save(str(shots / "connection-dialog-window.png"))
    saved = dialog.form_connection()
    assert saved is not None
    await dialog.save(saved, None)
    assert (await real_kernel.connections.get_connection("fake")).context_window == 4096
    dialog.close()
