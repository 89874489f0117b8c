"""Timeline view + delegate: painting, cached heights, top paging with a stable anchor, following."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from PySide6.QtCore import QEvent, QObject, QPoint, QPointF, QRect, Qt
from PySide6.QtGui import QColor, QGuiApplication, QImage, QMouseEvent, QPaintEvent

from foya_desktop.core.events import StreamStarted
from foya_desktop.core.messages import MessageStatus
from foya_desktop.ui import theme
from foya_desktop.ui.timeline.model import TimelineModel
from foya_desktop.ui.timeline.render import RowRenderer
from foya_desktop.ui.timeline.rows import Row
from foya_desktop.ui.timeline.view import (
    STREAM_CPU_SHARE,
    STREAM_REPAINT_MS,
    STREAM_SLOWEST_MS,
    TimelineView,
    stream_repaint_interval_ms,
)
from tests.ui.fakes import FakeKernel
from tests.ui.helpers import conversation, reply, settle, thinking, tool_call, tool_result, user, wait_until


async def _view(kernel: FakeKernel, sid: str = "s", height: int = 600) -> tuple[TimelineView, TimelineModel]:
    view = TimelineView(RowRenderer())
    model = TimelineModel(theme.body_font())
    view.setModel(model)
    view.resize(700, height)
    view.show()

    async def loader(before: int | None, limit: int):  # type: ignore[no-untyped-def]
        return await kernel.history.history_page(sid, before_seq=before, limit=limit)

    view.near_top.connect(lambda: None if model.loading else _spawn(model.fetch_older()))
    await model.load(sid, loader)
    await settle()
    return view, model


_tasks: set[object] = set()


def _spawn(coro) -> None:  # type: ignore[no-untyped-def]
    import asyncio
    task = asyncio.ensure_future(coro)
    _tasks.add(task)
    task.add_done_callback(_tasks.discard)


def _ink(image: QImage) -> int:
    """Pixels that are not the background colour (something was painted)."""
    background = image.pixelColor(0, 0)
    step = 4
    return sum(1 for x in range(0, image.width(), step) for y in range(0, image.height(), step)
               if image.pixelColor(x, y) != background)


async def test_delegate_paints_every_kind_of_row(shots: Path) -> None:
    kernel = FakeKernel()
    kernel.add_messages("s", [
        user("Why is startup slow?", mid="u1"),
        reply("Let me look.", mid="a1", parts=[thinking("Read the file first."),
                                              tool_call("c1", "read_file", path="src/app.py"),
                                              tool_call("c2", "shell", command="false")]),
        tool_result("c1", "read_file", "import sys\n" * 40, mid="t1"),
        tool_result("c2", "shell", "exit status 1", error=True, mid="t2"),
        reply("## Findings\n\n```python\nimport pandas  # slow\n```", mid="a2"),
        reply("Half a sent", "martin", mid="a3", status=MessageStatus.INTERRUPTED),
    ])
    view, _model = await _view(kernel, height=800)
    image = view.grab().toImage()
    image.save(str(shots / "test_timeline_rows.png"))
    assert _ink(image) > 500
    # an error result is drawn in the error colour somewhere on screen
    red = theme.error_color()
    assert any(_close(image.pixelColor(x, y), red) for x in range(0, 700, 2) for y in range(0, 800, 2))


def _close(a: QColor, b: QColor) -> bool:
    return abs(a.red() - b.red()) + abs(a.green() - b.green()) + abs(a.blue() - b.blue()) < 60


async def test_heights_are_measured_near_the_viewport_once_per_revision() -> None:
    """Issue 14: rows far from the viewport keep an estimated height (no layout, no highlighting);
    rows come near it measured, and scrolling back and repainting measure nothing again."""
    kernel = FakeKernel()
    kernel.add_messages("s", conversation(80))
    view, model = await _view(kernel)
    delegate = view.timeline_delegate
    measured = delegate.measured
    assert 0 < measured < model.rowCount()  # the last screens, not all 80 rows
    assert delegate.is_estimated_row(0)
    view.scrollToTop()
    await wait_until(lambda: not view.measuring_ahead, what="rows around the top measured")
    assert not delegate.is_estimated_row(0)
    after_top = delegate.measured
    view.viewport().update()
    await settle()
    view.scrollToBottom()
    await settle()
    view.scrollToTop()
    await settle()
    assert delegate.measured == after_top  # scrolling and repainting reuse cached heights
    _assert_rows_tile(view, model)


def _assert_rows_tile(view: TimelineView, model: TimelineModel) -> None:
    """Rows on screen sit edge to edge at their measured heights: none overlaps another."""
    viewport = view.viewport().rect()
    shown = [i for i in range(model.rowCount()) if view.row_rect(i).intersects(viewport)]
    assert shown
    for i in shown:
        rect = view.row_rect(i)
        assert not view.timeline_delegate.is_estimated_row(i)
        assert rect.height() == view.timeline_delegate.measure(model.index(i, 0)), i
        if i + 1 < model.rowCount():
            assert view.row_rect(i + 1).top() == rect.bottom() + 1, i


async def test_scrolling_near_the_top_pages_in_and_keeps_the_anchor() -> None:
    kernel = FakeKernel()
    kernel.add_messages("s", conversation(600))
    view, model = await _view(kernel)
    assert model.rowCount() == TimelineModel.INITIAL_PAGE
    bar = view.verticalScrollBar()
    target = model.index(3, 0)
    view.scrollTo(target, TimelineView.ScrollHint.PositionAtTop)
    await settle()
    anchor_key = model.row_at(3).key
    before = view.visualRect(target).top()
    bar.setValue(bar.value() - 1)  # a user scroll near the top
    await wait_until(lambda: model.rowCount() > TimelineModel.INITIAL_PAGE, what="older page")
    await settle()
    row = next(i for i in range(model.rowCount()) if model.row_at(i).key == anchor_key)
    after = view.visualRect(model.index(row, 0)).top()
    assert abs(after - (before + 1)) <= 2, (before, after)  # the row the person reads did not jump


async def test_follows_streaming_at_the_bottom_but_not_when_scrolled_up() -> None:
    kernel = FakeKernel()
    kernel.add_messages("s", conversation(60))
    view, model = await _view(kernel)
    bar = view.verticalScrollBar()
    assert bar.value() == bar.maximum()
    model.start_stream(StreamStarted("s", "st", "omni", "t"))
    for i in range(30):
        model.append_delta("s", "st", "text", f"Line {i} of a long streamed answer.\n\n")
        await settle(1)
    assert view.following and bar.value() == bar.maximum()
    bar.setValue(bar.maximum() // 2)
    await settle()
    assert not view.following
    value = bar.value()
    for i in range(10):
        model.append_delta("s", "st", "text", f"More {i}.\n\n")
        await settle(1)
    assert bar.value() == value  # the person reads older text; we do not yank the view
    view.jump_to_latest()
    await settle()
    assert view.following and bar.value() == bar.maximum()


async def test_following_survives_a_scroll_that_corrects_estimated_rows_on_its_way(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A reply that ends much shorter than it streamed (its tool arguments streamed in full, the
    stored call shows folded) scrolls a following view up over rows it had only estimated. Qt
    corrects them inside that scroll (``scrollContentsBy`` settles), which moves the bottom and
    scrolls again, and only then tells ``valueChanged`` the first, now stale value: the view took
    it for the person scrolling up and stopped following (seen after every long reply in
    ``benchmarks.timeline``: the next reply streamed below the fold)."""
    monkeypatch.setattr(RowRenderer, "estimate", lambda self, row, width, header: 40)  # too short
    kernel = FakeKernel()
    kernel.add_messages("s", conversation(60))
    view, model = await _view(kernel)
    bar = view.verticalScrollBar()
    assert view.following and bar.value() == bar.maximum()
    model.start_stream(StreamStarted("s", "st", "omni", "t"))
    for i in range(40):
        model.append_delta("s", "st", "text", f"Line {i} of a long streamed answer.\n\n")
        await settle(1)
    assert view.following and bar.value() == bar.maximum()
    estimated_above = [r for r in range(model.rowCount()) if view.timeline_delegate.is_estimated_row(r)]
    assert estimated_above  # the scroll up will reach rows known only by their estimate
    model.add_message(replace(reply("Done.", mid="st"), session_id="s"))
    await settle()
    assert view.following
    assert bar.value() == bar.maximum()


async def test_a_finished_reply_on_screen_is_laid_out_at_its_real_height_at_once(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The stored message that replaces a streamed reply is on screen: it is measured, not given
    an estimate first. It was estimated, so every reply's end moved the bottom twice (in
    ``benchmarks.timeline`` 82 px up to the estimate, then 30 px down once measured): the text
    the person was reading jumped."""
    monkeypatch.setattr(RowRenderer, "estimate", lambda self, row, width, header: 40)  # too short
    kernel = FakeKernel()
    kernel.add_messages("s", conversation(20))
    view, model = await _view(kernel)
    bar = view.verticalScrollBar()
    model.start_stream(StreamStarted("s", "st", "omni", "t"))
    for i in range(20):
        model.append_delta("s", "st", "text", f"Line {i} of a long streamed answer.\n\n")
        await settle(1)
    await settle()
    text = model.row_at(model.rowCount() - 1).plain_text()
    maxima: list[int] = []
    bar.rangeChanged.connect(lambda _low, high: maxima.append(high))
    model.add_message(replace(reply(text, mid="st"), session_id="s"))
    await settle()
    assert all(m == bar.maximum() for m in maxima), maxima  # at most one move, to the real bottom
    assert view.following and bar.value() == bar.maximum()


async def test_a_burst_of_streamed_text_is_measured_once_per_repaint_slot_and_all_shown(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 14: the bridge flushes up to 30 times a second; the view measures and repaints the
    streaming row at most every ``STREAM_REPAINT_MS``, showing everything that arrived."""
    kernel = FakeKernel()
    kernel.add_messages("s", conversation(20))
    view, model = await _view(kernel)
    delegate = view.timeline_delegate
    measured: list[str] = []
    real = delegate._measure

    def counting(row: Row, width: int, header: bool) -> int:
        measured.append(row.key)
        return real(row, width, header)

    monkeypatch.setattr(delegate, "_measure", counting)
    model.start_stream(StreamStarted("s", "st", "omni", "t"))
    await settle()
    await wait_until(lambda: not view._stream_timer.isActive(), what="the slot passed")
    stream = model.row_at(model.rowCount() - 1)
    before = measured.count(stream.key)
    model.append_delta("s", "st", "text", "First words. ")  # a slot is free: shown at once
    assert measured.count(stream.key) == before + 1
    for i in range(10):  # a burst inside one slot: nothing measured yet
        model.append_delta("s", "st", "text", f"word{i} ")
    assert measured.count(stream.key) == before + 1 and view._stream_timer.isActive()
    model.start_stream(StreamStarted("s", "st2", "omni", "t"))  # rows move meanwhile
    await wait_until(lambda: not view._stream_timer.isActive(), what="the slot passed")
    assert measured.count(stream.key) == before + 2  # once for the whole burst
    row = model.stream_position("st")
    assert row is not None and model.row_at(row).plain_text().endswith("word9 ")
    assert delegate.is_measured(model.index(row, 0))  # at the height of all the text


async def test_clicking_the_folded_reasoning_line_unfolds_it() -> None:
    kernel = FakeKernel()
    kernel.add_messages("s", [reply("Answer.", mid="a1", parts=[thinking("step one\n\nstep two\n\nstep three")])])
    view, model = await _view(kernel)
    rect = view.row_rect(0)
    height = rect.height()
    y = rect.top() + 12 + 2 + 22  # header gap + header line: the first line under the name
    for kind in (QEvent.Type.MouseButtonPress, QEvent.Type.MouseButtonRelease):
        event = QMouseEvent(kind, QPointF(60, y), QPointF(view.viewport().mapToGlobal(QPoint(60, y))),
                            Qt.MouseButton.LeftButton, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
        view.viewportEvent(event)
    await settle()
    assert 0 in model.row_at(0).expanded  # type: ignore[union-attr]
    assert view.row_rect(0).height() > height


async def test_empty_session_shows_the_placeholder(shots: Path) -> None:
    kernel = FakeKernel()
    view, _ = await _view(kernel)
    view.placeholder = "Start the conversation."
    image = view.grab().toImage()
    image.save(str(shots / "test_timeline_empty.png"))
    assert _ink(image) > 5


class _PaintRects(QObject):
    """Records the rectangles the viewport repaints."""

    def __init__(self) -> None:
        super().__init__()
        self.rects: list[QRect] = []

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if isinstance(event, QPaintEvent):
            self.rects.append(event.rect())
        return False


async def test_scrolling_repaints_only_the_strip_scrolled_in_and_shows_the_same_pixels(shots: Path) -> None:
    """Issue 14 (paging while scrolling up): a wheel step moves the pixels already on screen and
    paints only what scrolled in (QTreeView repainted the whole viewport for any step taller than
    a few pixels, most of every scrolling frame); what is on screen afterwards is exactly what a
    full repaint draws."""
    kernel = FakeKernel()
    kernel.add_messages("s", conversation(80))
    view, model = await _view(kernel)
    bar = view.verticalScrollBar()
    await wait_until(lambda: not view.measuring_ahead, what="rows around the bottom measured")
    await settle()
    rects = _PaintRects()
    view.viewport().installEventFilter(rects)
    steps: list[list[int]] = []
    for _ in range(6):
        rects.rects.clear()
        bar.setValue(bar.value() - 72)  # one wheel notch: 3 lines of 24 px
        await settle(2)
        steps.append([r.height() for r in rects.rects])
    view.viewport().removeEventFilter(rects)
    # NOTE: a row that comes near the viewport measured for real is refreshed, and QTreeView
    # repaints everything after a height change: allowed, but not on most steps. (A busy machine
    # may paint two steps at once: two strips.)
    height = view.viewport().height()
    painted = [max(s) for s in steps if s]
    assert sum(h <= height // 3 for h in painted) >= 3 and sum(h >= height for h in painted) <= 2, steps
    screen = QGuiApplication.primaryScreen().grabWindow(view.winId())  # the window's backing store
    top_left = view.viewport().mapTo(view.window(), QPoint(0, 0))
    on_screen = screen.copy(QRect(top_left, view.viewport().size())).toImage()
    fresh = view.viewport().grab().toImage()
    on_screen.save(str(shots / "timeline-scrolled-on-screen.png"))
    fresh.save(str(shots / "timeline-scrolled-fresh.png"))
    fmt = QImage.Format.Format_RGB32
    assert on_screen.convertToFormat(fmt) == fresh.convertToFormat(fmt)
    _assert_rows_tile(view, model)


async def test_rows_shown_before_are_not_measured_again_when_the_window_is_reloaded() -> None:
    """Issue 14 (paging, jumps): reloading the window (a jump, the session shown again) builds new
    row objects; rows the person saw before were all measured for real in the one layout pass
    that inserted the page. Far from the viewport they now keep their last real height as an
    estimate, and are measured when they come near it, at the same height."""
    kernel = FakeKernel()
    kernel.add_messages("s", conversation(TimelineModel.INITIAL_PAGE))
    view, model = await _view(kernel)
    view.scrollToTop()
    await wait_until(lambda: not view.measuring_ahead, what="rows around the top measured")
    await settle()
    delegate = view.timeline_delegate
    heights = [view.row_rect(i).height() for i in range(5)]
    assert not delegate.is_estimated_row(0)
    view.scrollToBottom()
    await settle()

    async def loader(before: int | None, limit: int):  # type: ignore[no-untyped-def]
        return await kernel.history.history_page("s", before_seq=before, limit=limit)

    await model.load("s", loader)
    await settle()
    await wait_until(lambda: not view.measuring_ahead, what="rows around the bottom measured")
    assert view.following
    assert delegate.is_estimated_row(0)  # seen before, far from the viewport: not measured again
    assert [view.row_rect(i).height() for i in range(5)] == heights  # its last real height
    view.scrollToTop()
    await wait_until(lambda: not view.measuring_ahead, what="rows around the top measured")
    await settle()
    assert not delegate.is_estimated_row(0)
    assert [view.row_rect(i).height() for i in range(5)] == heights
    _assert_rows_tile(view, model)


def test_streaming_repaints_are_paced_by_what_they_cost() -> None:
    assert stream_repaint_interval_ms(0.0) == STREAM_REPAINT_MS  # cheap: 30 a second
    assert stream_repaint_interval_ms(STREAM_CPU_SHARE * 0.060) == 60  # costly: the share of a core holds
    assert stream_repaint_interval_ms(1.0) == STREAM_SLOWEST_MS  # still 10 a second, whatever it costs


async def test_a_costly_streaming_repaint_makes_the_next_one_wait_longer() -> None:
    """Issue 14: a long paragraph is parsed and laid out again at every repaint; measuring and
    painting it is timed on the GUI thread's CPU clock (a fake one here, 3 ms a reading) and the
    next repaint waits until that cost is the allowed share of a core."""
    kernel = FakeKernel()
    kernel.add_messages("s", conversation(20))
    view, model = await _view(kernel)
    model.start_stream(StreamStarted("s", "st", "omni", "t"))
    await settle()
    await wait_until(lambda: not view._stream_timer.isActive(), what="the slot passed")
    readings = iter(range(0, 10_000, 3))
    view.cpu_clock = lambda: next(readings) / 1000
    model.append_delta("s", "st", "text", "A long paragraph ")  # a slot is free: measured at once
    await wait_until(lambda: not view._stream_painting, what="the repaint was painted")
    assert view._stream_interval_ms == stream_repaint_interval_ms(0.006)  # 3 ms measuring + 3 ms painting
    model.append_delta("s", "st", "text", "that goes on")
    assert view._stream_timer.isActive() and view._stream_timer.interval() > STREAM_REPAINT_MS
    view.cpu_clock = lambda: 0.0  # cheap again
    await wait_until(lambda: not view._stream_timer.isActive(), what="the slot passed")
    await wait_until(lambda: not view._stream_painting, what="the repaint was painted")
    assert view._stream_interval_ms == STREAM_REPAINT_MS
    row = model.stream_position("st")
    assert row is not None and model.row_at(row).plain_text() == "A long paragraph that goes on"
