"""Long errors are shown whole, wrapped within the window, with *Copy error* (the timeline's
interrupted marker and the status line's red error), on the real kernel: the HTTP fake model
streams a little, then reports a 400-character error in the stream.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QFontMetrics, QGuiApplication
from PySide6.QtTest import QTest

from foya_desktop.core.messages import MessageStatus
from foya_desktop.engine.kernel import Kernel
from foya_desktop.ui.main_window import MainWindow
from foya_desktop.ui.timeline.model import ROW_ROLE
from foya_desktop.ui.timeline.rows import MessageRow
from tests.fakeprovider import FakeProviderServer, Fault, Reply
from tests.ui.helpers import Events, open_session, settle, wait_until

LONG = ("The gateway refused this request because the monthly quota of the project "
        "acme-research-prototype-eu-west has been used up; ask an administrator to raise it. " * 3)[:400]
assert len(LONG) == 400


async def test_a_400_character_error_is_wrapped_whole_within_the_window_and_copied_whole(
        real_window: MainWindow, real_kernel: Kernel, fake_provider: FakeProviderServer, shots: Path) -> None:
    real_window.resize(900, 700)
    fake_provider.script(Reply(text="Here is the first part of the answer. " * 3, chunk_size=12,
                               fault=Fault.midstream_error("server_error", LONG, after_chunks=4)))
    sid = await open_session(real_window, real_kernel, title="Long error")
    events = Events(real_kernel)
    real_window.pane.composer.input.setPlainText("go")
    real_window.pane.send()
    assert (await events.turns(1, sid))[0].status == "error"
    await settle(5)

    # the status line: the whole error, wrapped, inside the window
    status = real_window.pane.status
    label = status.vp_label
    assert LONG in label.text()
    assert real_window.width() == 900, "nothing widened the window"
    line = QFontMetrics(label.font()).lineSpacing()
    assert label.heightForWidth(label.width()) >= 3 * line, "wrapped over several lines"
    assert label.height() >= label.heightForWidth(label.width()), "given all the height it needs"
    corner = label.mapTo(real_window, QPoint(label.width(), label.height()))
    assert corner.x() <= real_window.width() and corner.y() <= real_window.height()
    assert status.copy_error.isVisible()
    QGuiApplication.clipboard().setText("something else")
    status.copy_error.click()
    copied = QGuiApplication.clipboard().text()
    assert LONG in copied and label.text().endswith(copied.replace("&", "&amp;") + "</span>")

    # the timeline: the interrupted marker wraps the whole reason; its Copy error copies it whole
    view = real_window.pane.timeline_view
    model = view.model()
    rows = [r for r in (model.index(i, 0).data(ROW_ROLE) for i in range(model.rowCount()))
            if isinstance(r, MessageRow) and r.message.status == MessageStatus.INTERRUPTED]
    (row,) = rows
    index = next(i for i in range(model.rowCount()) if model.index(i, 0).data(ROW_ROLE) is row)
    view.scrollTo(model.index(index, 0))
    await wait_until(lambda: any(LONG in text for _box, text in view.timeline_delegate.copy_buttons(row.key)),
                     5, "the marker's Copy error painted")
    box, text = next((b, t) for b, t in view.timeline_delegate.copy_buttons(row.key) if LONG in t)
    rect = view.row_rect(index)
    assert box.right() <= rect.width() <= view.viewport().width()
    bold = QFontMetrics(real_window.font())
    assert rect.height() >= bold.horizontalAdvance(LONG) // rect.width() * bold.lineSpacing(), \
        "the row is as tall as the wrapped reason"
    real_window.grab().save(str(shots / "long-error-wrapped.png"))
    QGuiApplication.clipboard().setText("something else")
    QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                     rect.topLeft() + box.center())
    await settle()
    assert QGuiApplication.clipboard().text() == text and LONG in text
