"""The composer as peers draw it: one Stop where Send was, and the session's pickers beside Send (issue 12).

Issue 12 "Look and feel": "proper hit sizes for Send/Stop/attach" and, in its
last sentence, "the app looks like something people choose" next to the Codex
app, Claude desktop, goose desktop and Cherry Studio — whose composers show one
Stop in place of Send while a reply runs and a compact model picker beside it.
Everything runs on the real kernel with the fake provider server.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QAbstractButton

from foya_desktop.core.events import TurnFinished, VPStatus
from foya_desktop.core.model import VP, Connection, ProviderKind
from foya_desktop.engine.kernel import Kernel
from foya_desktop.ui.main_window import MainWindow
from tests.fakeprovider import FakeProviderServer, Reply
from tests.ui.helpers import open_session, settle, wait_until


def _visible_stops(window: MainWindow) -> list[QAbstractButton]:
    return [b for b in window.findChildren(QAbstractButton)
            if b.isVisible() and b.text().replace("&", "").startswith("Stop")]


async def test_stop_shows_where_send_was_and_on_the_vps_title_line_while_a_reply_runs(
        real_window: MainWindow, real_kernel: Kernel, fake_provider: FakeProviderServer, shots: Path) -> None:
    """The composer's Stop stands at the right end where Send was (Send becomes Queue; Esc still
    stops); the running VP's own Stop is on its status title line with its name and state (Yeaft Y40),
    with one VP as with several."""
    fake_provider.script(Reply(text="word " * 400, chunk_size=4, delay_per_chunk=0.02))
    await open_session(real_window, real_kernel)
    composer = real_window.pane.composer
    assert _visible_stops(real_window) == [], "no Stop while nothing runs"
    assert composer.send_button.isVisible() and composer.send_button.text() == "Send"
    finished: list[TurnFinished] = []
    real_window.bridge.turn_finished.connect(finished.append)
    composer.input.setPlainText("Tell me a long story")
    composer.send_button.click()
    panel = real_window.pane.status.vp_panel
    await wait_until(lambda: "omni" in panel.blocks and panel.blocks["omni"].running, timeout=10,
                     what="the VP's block while it runs")
    await settle(2)
    block = panel.blocks["omni"]
    assert set(_visible_stops(real_window)) == {composer.stop_button, block.stop_button}
    title = block.name_label.geometry()  # name, state and Stop on one line
    assert block.stop_button.geometry().top() < title.center().y() < block.stop_button.geometry().bottom()
    assert block.stop_button.geometry().left() > block.state_label.geometry().right()
    real_window.grab().save(str(shots / "one-vp-stop-on-title-line.png"))
    assert composer.send_button.text() == "Queue", "sending while a reply runs still queues"
    assert composer.stop_button.geometry().left() > composer.send_button.geometry().right(), "Stop at the end"
    composer.input.setFocus()
    QTest.keyClick(composer.input, Qt.Key.Key_Escape)
    await wait_until(lambda: len(finished) == 1, timeout=15, what="the stopped turn")
    assert finished[0].status == "stopped"
    await settle(2)
    assert _visible_stops(real_window) == [] and composer.send_button.text() == "Send"


async def test_with_two_vps_running_each_block_has_its_own_stop(
        real_window: MainWindow, real_kernel: Kernel) -> None:
    """Yeaft Y40 (VP name, run state and Stop on one header line): with two VPs running, "Stop this VP"
    differs from stopping the turn, so each running block shows it again; a VP that is done has none."""
    await real_kernel.vps.add_vp(VP("linus", "Linus", "Linus the implementer", "You implement."))
    sid = await open_session(real_window, real_kernel, roster=("omni", "linus"))
    pane = real_window.pane
    pane.composer.set_busy(True)
    pane.on_vp_status(VPStatus(sid, "t1", "omni", "running", requests=1))
    await settle()  # a block added to a shown panel shows on the next turn of the loop
    assert pane.status.vp_panel.blocks["omni"].stop_button.isVisibleTo(pane), "alone too (Y40)"
    pane.on_vp_status(VPStatus(sid, "t1", "linus", "running", requests=1))
    await settle()
    blocks = pane.status.vp_panel.blocks
    assert all(blocks[s].stop_button.isVisibleTo(pane) for s in ("omni", "linus"))
    pane.on_vp_status(VPStatus(sid, "t1", "linus", "done", requests=1))
    assert not blocks["linus"].stop_button.isVisibleTo(pane)
    assert blocks["omni"].stop_button.isVisibleTo(pane), "the VP still running keeps its Stop"
    pane.composer.set_busy(False)


async def test_the_composer_pickers_change_the_sessions_service_model_and_approval(
        real_window: MainWindow, real_kernel: Kernel, fake_provider: FakeProviderServer) -> None:
    """The service / model / approval pickers sit in the composer beside Send, show the session's
    settings, and a choice there changes the session in the kernel: the next request uses it."""
    await real_kernel.connections.add_connection(
        Connection("other", ProviderKind.OPENAI, fake_provider.base_url, "other-model"))
    await real_window.refresh_connections()  # what the Connections dialog does when it closes
    sid = await open_session(real_window, real_kernel)
    pane = real_window.pane
    status, composer = pane.status, pane.composer
    await wait_until(lambda: status.connection.findText("other") >= 0, what="the second service listed")
    for picker in (status.connection, status.model, status.approval, status.effort):
        assert composer.isAncestorOf(picker) and picker.isVisible()
        assert picker.geometry().bottom() >= 0
    assert status.connection.currentText() == "fake" and status.model.currentText() == "fake-model"
    assert not composer.stacked(), "one line at the usual window width"
    status.connection.setCurrentIndex(status.connection.findText("other"))
    status.connection.activated.emit(status.connection.currentIndex())
    await wait_until(lambda: status.model.currentText() == "other-model", what="the service's model")
    status.approval.setCurrentIndex(status.approval.findData("auto_edit"))
    status.approval.activated.emit(status.approval.currentIndex())
    await real_window.runner.drain()
    session = await real_kernel.sessions.get_session(sid)
    assert (session.connection, session.model, str(session.approval_mode)) == ("other", "other-model", "auto_edit")
    fake_provider.script(Reply(text="on the other one"))
    composer.input.setPlainText("which model?")
    composer.send_button.click()
    await wait_until(lambda: bool(fake_provider.requests), timeout=10, what="a request")
    assert fake_provider.requests[0].body["model"] == "other-model"
    await wait_until(lambda: real_kernel.turns.phase(sid).value == "idle", timeout=15, what="turn over")


async def test_a_narrow_window_puts_the_pickers_on_their_own_line(real_window: MainWindow,
                                                                   real_kernel: Kernel, shots: Path) -> None:
    """Nothing clipped or pushed off: below the width the pickers and Send need, they take two lines."""
    await open_session(real_window, real_kernel)
    composer = real_window.pane.composer
    real_window.resize(1200, 700)
    await settle(5)
    assert not composer.stacked()
    real_window.resize(760, 700)
    await settle(5)
    assert real_window.width() == 760, "the window could not be made narrow"
    assert composer.stacked()
    real_window.grab().save(str(shots / "composer_narrow.png"))
    frame = composer.send_button.parentWidget()
    assert frame is not None
    for widget in (composer.send_button, real_window.pane.status.effort):
        assert widget.geometry().right() <= frame.width(), "cut off at the right edge"


async def test_the_service_picker_is_as_wide_as_the_service_it_shows(real_window: MainWindow,
                                                                      real_kernel: Kernel, shots: Path) -> None:
    """A short service name leaves no gap after it: "Choose a service" sizes the picker only while
    no service is set (it is the placeholder then)."""
    await open_session(real_window, real_kernel)
    status = real_window.pane.status
    await settle(3)
    picker = status.connection
    assert picker.currentText() == "fake"
    words = picker.fontMetrics()
    assert picker.placeholderText() == ""
    assert picker.width() < words.horizontalAdvance("Choose a service"), picker.width()
    assert picker.width() >= words.horizontalAdvance("fake"), "the name itself is not cut"
    real_window.grab().save(str(shots / "composer_short_service.png"))
