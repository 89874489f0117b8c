"""Sidebar defects of issue 11: the waiting badge's title colour and a badge that outlived its answer."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QColor, QImage, QPainter
from PySide6.QtWidgets import QStyleOptionViewItem

from foya_desktop.engine.kernel import Kernel
from foya_desktop.ui.main_window import MainWindow
from foya_desktop.ui.sessions.tree_model import NODE_ROLE
from tests.fakeprovider import FakeProviderServer, Reply, ToolCallSpec
from tests.ui.helpers import Events, open_session, settle, wait_until


def _row_image(window: MainWindow, session_id: str) -> QImage:
    view = window.tree_view
    index = window.tree_model.index_of_session(session_id)
    rect = view.visualRect(index)
    image = QImage(rect.width(), rect.height(), QImage.Format.Format_ARGB32)
    image.fill(QColor("white"))
    painter = QPainter(image)
    option = QStyleOptionViewItem()
    option.rect = rect.translated(-rect.left(), -rect.top())
    option.palette = view.palette()
    view.itemDelegate().paint(painter, option, index)
    painter.end()
    return image


def _dark_pixels(image: QImage, right: int) -> int:
    return sum(1 for x in range(22, right) for y in range(image.height())
               if QColor(image.pixel(x, y)).lightness() < 128)


async def test_waiting_badge_keeps_the_title_readable(real_window: MainWindow, real_kernel: Kernel,
                                                      shots: Path) -> None:
    """The badge painted its white pen into the title (white on white)."""
    sid = await open_session(real_window, real_kernel, title="Needs an answer")
    real_window.tree_view.clearSelection()
    real_window.tree_view.setCurrentIndex(real_window.tree_model.index(0, 0))
    plain = _row_image(real_window, sid)
    real_window.tree_model.set_waiting(sid, True)
    marked = _row_image(real_window, sid)
    marked.save(str(shots / "sidebar_waiting_badge.png"))
    title_area = marked.width() - 30
    assert _dark_pixels(marked, title_area) > 0.8 * _dark_pixels(plain, title_area) > 0


async def test_waiting_badge_goes_when_the_question_is_answered(
        real_window: MainWindow, real_kernel: Kernel, fake_provider: FakeProviderServer) -> None:
    """The badge stayed after the answer (the question was still listed while its event ran)."""
    fake_provider.script(Reply(tool_calls=[ToolCallSpec("ask_user", {"question": "Which?", "choices": ["A", "B"]})]),
                         Reply(text="A it is."))
    events = Events(real_kernel)
    sid = await open_session(real_window, real_kernel, title="Asks")
    await real_kernel.send(sid, "go")
    node = real_window.tree_model.index_of_session(sid).data(NODE_ROLE)
    await wait_until(lambda: real_window.tree_model.index_of_session(sid).data(NODE_ROLE).waiting, 10, "badge")
    (question,) = real_kernel.pending_questions(sid)
    await real_kernel.answer_question(question.question_id, "A")
    await settle()
    assert not real_window.tree_model.index_of_session(sid).data(NODE_ROLE).waiting
    await events.turns(1, sid)
    assert node is not None
