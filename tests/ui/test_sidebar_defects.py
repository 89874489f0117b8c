"""Sidebar defects of issue 11: the waiting badge's title colour (selected or not, light and dark), a
badge that outlived its answer, and a composer placeholder naming the previous session's VP."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtGui import QColor, QImage, QPainter
from PySide6.QtWidgets import QStyle, QStyleOptionViewItem

from foya_desktop.core.model import VP
from foya_desktop.engine.kernel import Kernel
from foya_desktop.ui import theme
from foya_desktop.ui.main_window import MainWindow
from foya_desktop.ui.sessions.tree_model import NODE_ROLE
from tests.fakeprovider import FakeProviderServer, Reply, ToolCallSpec
from tests.ui.helpers import Events, open_session, settle, wait_until


@pytest.fixture(autouse=True)
def _light_afterwards() -> Iterator[None]:
    """The palette is the application's: leave it light for the tests that follow."""
    yield
    theme.apply_theme("light")


def _row_image(window: MainWindow, session_id: str, *, selected: bool = False,
               background: QColor | None = None) -> QImage:
    view = window.tree_view
    index = window.tree_model.index_of_session(session_id)
    rect = view.visualRect(index)
    image = QImage(rect.width(), rect.height(), QImage.Format.Format_ARGB32)
    image.fill(background or QColor("white"))
    painter = QPainter(image)
    option = QStyleOptionViewItem()
    option.rect = rect.translated(-rect.left(), -rect.top())
    option.palette = view.palette()
    if selected:
        option.state |= QStyle.StateFlag.State_Selected | QStyle.StateFlag.State_Active
    view.itemDelegate().paint(painter, option, index)
    painter.end()
    return image


def _dark_pixels(image: QImage, right: int) -> int:
    return sum(1 for x in range(22, right) for y in range(image.height())
               if QColor(image.pixel(x, y)).lightness() < 128)


def _ink(image: QImage, right: int) -> int:
    """Title pixels that stand out from the row's own background (its most common colour)."""
    back = QColor(image.pixel(right - 2, 2)).lightness()
    return sum(1 for x in range(22, right) for y in range(image.height())
               if abs(QColor(image.pixel(x, y)).lightness() - back) > 90)


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
    await real_kernel.turns.send(sid, "go")
    node = real_window.tree_model.index_of_session(sid).data(NODE_ROLE)
    await wait_until(lambda: real_window.tree_model.index_of_session(sid).data(NODE_ROLE).waiting, 10, "badge")
    (question,) = real_kernel.asks.pending_questions(sid)
    await real_kernel.asks.answer_question(question.question_id, "A")
    await settle()
    assert not real_window.tree_model.index_of_session(sid).data(NODE_ROLE).waiting
    await events.turns(1, sid)
    assert node is not None


@pytest.mark.parametrize("choice", ["light", "dark"])
async def test_waiting_title_is_readable_selected_or_not_in_both_themes(
        real_window: MainWindow, real_kernel: Kernel, shots: Path, choice: str) -> None:
    """The title of a waiting session keeps as much ink as without the badge, in every state (issue 11)."""
    real_window.prefs.update(theme=choice)
    sid = await open_session(real_window, real_kernel, title="Waiting for you here")
    base = real_window.tree_view.palette().color(real_window.tree_view.backgroundRole())
    for selected in (False, True):
        real_window.tree_model.set_waiting(sid, False)
        plain = _row_image(real_window, sid, selected=selected, background=base)
        real_window.tree_model.set_waiting(sid, True)
        marked = _row_image(real_window, sid, selected=selected, background=base)
        state = "selected" if selected else "unselected"
        marked.save(str(shots / f"sidebar_waiting_{state}_{choice}.png"))
        title_area = marked.width() - 30
        assert _ink(marked, title_area) > 0.8 * _ink(plain, title_area) > 0, (state, choice)


async def test_placeholder_names_the_session_on_screen_after_a_quick_switch(
        real_window: MainWindow, real_kernel: Kernel) -> None:
    """Switching on before the last switch finished showed the previous session (and its default VP)
    while the tree had the new one selected (issue 11 sidebar defect)."""
    await real_kernel.vps.add_vp(VP("linus", "Linus", "Linus the implementer", "You implement."))
    first = await open_session(real_window, real_kernel, title="Linus's", roster=["linus"], default_vp="linus")
    placeholder = real_window.pane.composer.input.placeholderText
    assert "Linus" in placeholder()
    # a VP the window has not seen yet: showing this session reads the VPs first (an await)
    await real_kernel.vps.add_vp(VP("martin", "Martin", "Martin the reviewer", "You review."))
    second = await real_kernel.sessions.create_session(connection="fake", model="fake-model", title="Martin's",
                                              roster=["martin"], default_vp="martin")
    await wait_until(lambda: real_window.tree_model.session(second.id) is not None, what="tree row")
    real_window.tree_view.select_session(second.id)
    real_window.tree_view.select_session(first)  # back before the VPs arrived
    await real_window.runner.drain()
    await settle(5)
    assert real_window.pane.session is not None and real_window.pane.session.id == first
    assert "Linus" in placeholder() and "Martin" not in placeholder()
    real_window.tree_view.select_session(second.id)
    await wait_until(lambda: "Martin" in placeholder(), 5, "the second session's VP")
    assert real_window.pane.session is not None and real_window.pane.session.id == second.id
