"""Images in replies: thumbnails at the tool that produced them, and a viewer that browses the reply.

Real kernel: the fake model calls ``view_image`` on PNGs in the project.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QImage
from PySide6.QtTest import QTest

from foya_desktop.core.messages import ImagePart, Message, TextPart, ToolCallPart, ToolResultPart
from foya_desktop.engine.kernel import Kernel
from foya_desktop.ui.images.gallery import reply_images
from foya_desktop.ui.images.viewer import ImageViewer
from foya_desktop.ui.main_window import MainWindow
from foya_desktop.ui.timeline.canvas import Canvas
from foya_desktop.ui.timeline.model import HEADER_ROLE
from foya_desktop.ui.timeline.rows import MessageRow
from tests.fakeprovider import FakeProviderServer, Reply, ToolCallSpec
from tests.ui.fakes import FakeKernel
from tests.ui.helpers import Events, open_session, reply, settle, show, wait_until


def _png(path: Path, color: str, width: int, height: int) -> None:
    image = QImage(width, height, QImage.Format.Format_RGB32)
    image.fill(QColor(color))
    assert image.save(str(path), "PNG")  # type: ignore[call-overload]  # stub says bytes; the binding wants str


def _view(path: str) -> ToolCallSpec:
    return ToolCallSpec("view_image", {"path": path})


def _image_row(window: MainWindow) -> int:
    model = window.pane.timeline_model
    return next(i for i in range(model.rowCount()) if isinstance(model.row_at(i), MessageRow)
                and any(c.name == "view_image" for c in model.row_at(i).message.tool_calls))  # type: ignore[union-attr]


def _layout(window: MainWindow, row: int) -> Canvas:
    """Measure the row the way the delegate paints it (hit areas, thumbnail boxes)."""
    model, view = window.pane.timeline_model, window.pane.timeline_view
    canvas = Canvas(None, 0, 0, view.timeline_delegate.width())
    view.timeline_delegate.renderer.walk(canvas, model.row_at(row), bool(model.index(row, 0).data(HEADER_ROLE)))
    return canvas


async def _run_two_images(window: MainWindow, kernel: Kernel, provider: FakeProviderServer, tmp_path: Path) -> str:
    project = tmp_path / "proj"
    project.mkdir()
    _png(project / "red.png", "#d62728", 320, 200)
    _png(project / "blue.png", "#1f77b4", 90, 160)
    provider.script(Reply(text="Let me look at both.", tool_calls=[_view("red.png"), _view("blue.png")]),
                    Reply(text="The first is red, the second is blue."))
    events = Events(kernel)
    sid = await open_session(window, kernel, title="Pictures", workdir=str(project), approval_mode="ask")
    window.pane.composer.input.setPlainText("what colours are red.png and blue.png?")
    window.pane.send()
    turns = await events.turns(1)
    assert turns[0].status == "completed", turns[0].error
    await settle(5)
    return sid


async def test_thumbnails_sit_under_their_tool_and_open_a_browsable_viewer(
        real_window: MainWindow, real_kernel: Kernel, fake_provider: FakeProviderServer, tmp_path: Path) -> None:
    sid = await _run_two_images(real_window, real_kernel, fake_provider, tmp_path)
    pane = real_window.pane
    row = _image_row(real_window)
    message_row = pane.timeline_model.row_at(row)
    assert isinstance(message_row, MessageRow)
    calls = [p for p in message_row.message.parts if isinstance(p, ToolCallPart)]
    shas = [message_row.result_for(c.call_id).images[0].artifact for c in calls]  # type: ignore[union-attr]
    canvas = _layout(real_window, row)
    lines = {part: rect for rect, part in canvas.hits}
    call_lines = [lines[message_row.message.parts.index(c)] for c in calls]
    boxes = {sha: rect for rect, sha in canvas.images}
    assert set(boxes) == set(shas)
    # each thumbnail sits right under the line of the call that produced it, before the next call
    assert call_lines[0].bottom() < boxes[shas[0]].top() < call_lines[1].top()
    assert call_lines[1].bottom() < boxes[shas[1]].top()
    assert boxes[shas[0]].height() <= 100  # compact

    await wait_until(lambda: all(pane.thumbnails.get(s) is not None for s in shas), what="thumbnails loaded")
    view = pane.timeline_view
    view.scrollTo(pane.timeline_model.index(row, 0))
    await settle()
    real_window.grab()  # paint: the delegate records where the thumbnails are
    rect = view.visualRect(pane.timeline_model.index(row, 0))
    target = rect.topLeft() + boxes[shas[0]].center()
    QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, target)
    await wait_until(lambda: pane.images.viewer is not None and pane.images.viewer.isVisible(), what="viewer")
    viewer = pane.images.viewer
    assert isinstance(viewer, ImageViewer) and not viewer.isModal()
    assert [i.sha for i in viewer.images] == shas and viewer.index == 0
    await wait_until(lambda: not viewer.displayed_size().isEmpty(), what="first image shown")
    shown, box = viewer.displayed_size(), viewer.picture.size()
    assert shown.width() <= box.width() and shown.height() <= box.height()
    assert abs(shown.width() / shown.height() - 320 / 200) < 0.05  # fit, aspect kept
    assert "view_image · red.png" in viewer.caption.text() and viewer.caption.text().startswith("1 / 2")
    assert not viewer.prev_button.isEnabled() and viewer.next_button.isEnabled()

    QTest.keyClick(viewer, Qt.Key.Key_Right)
    assert viewer.index == 1 and viewer.current is not None and viewer.current.sha == shas[1]
    await wait_until(lambda: abs(viewer.displayed_size().width() / max(1, viewer.displayed_size().height())
                                 - 90 / 160) < 0.05, what="second image shown")
    assert "blue.png" in viewer.caption.text() and not viewer.next_button.isEnabled()
    QTest.keyClick(viewer, Qt.Key.Key_Right)  # at the end: stays
    assert viewer.index == 1
    viewer.prev_button.click()
    assert viewer.index == 0
    QTest.keyClick(viewer, Qt.Key.Key_End)
    assert viewer.index == 1
    viewer.close()

    # after reloading the history the thumbnails come back at the same place
    await open_session(real_window, real_kernel, title="Elsewhere")
    await show(real_window, sid)
    row = _image_row(real_window)
    again = {sha: rect for rect, sha in _layout(real_window, row).images}
    assert again == boxes
    assert [i.sha for i in reply_images(pane.timeline_model, row)] == shas


async def test_viewer_says_when_an_image_cannot_be_read(real_window: MainWindow, real_kernel: Kernel) -> None:
    viewer = ImageViewer(real_kernel.history.read_artifact, real_window)
    from foya_desktop.ui.images.gallery import GalleryImage

    viewer.show_images([GalleryImage("0" * 64, "gone.png", "row")], 0)
    viewer.show()
    await wait_until(lambda: "missing" in viewer.picture.text(), what="missing text")
    assert viewer.caption.text() == "1 / 1  ·  gone.png"
    viewer.close()
    viewer.deleteLater()
    await settle()


async def test_a_reply_gallery_spans_the_turn_of_one_vp_only(fake_window: MainWindow, fake_kernel: FakeKernel) -> None:
    session = await fake_kernel.sessions.create_session(title="Gallery")
    def img(sha: str, name: str = "") -> ImagePart:
        return ImagePart(sha, "image/png", name)
    fake_kernel.add_messages(session.id, [
        Message("u1", "", "user", (TextPart("look"), img("u" * 64, "mine.png"))),
        reply("", "omni", mid="a1", turn_id="t1", parts=[ToolCallPart("c1", "view_image", {"path": "a.png"})]),
        Message("t1", "", "tool", (ToolResultPart("c1", "view_image", "Image a.png", images=(img("a" * 64),)),),
                speaker="omni", turn_id="t1"),
        reply("and a chart", "omni", mid="a2", turn_id="t1", parts=[img("b" * 64, "chart.png")]),
        reply("mine", "linus", mid="a3", turn_id="t1", parts=[img("c" * 64)]),
        reply("", "omni", mid="a4", turn_id="t2", parts=[img("d" * 64)]),
    ])
    await settle()
    await show(fake_window, session.id)
    model = fake_window.pane.timeline_model
    rows = {model.row_at(i).key: i for i in range(model.rowCount())}
    omni = reply_images(model, rows["a1"])
    assert [(i.sha[0], i.caption) for i in omni] == [("a", "view_image · a.png"), ("b", "chart.png")]
    assert [i.sha[0] for i in reply_images(model, rows["a2"])] == ["a", "b"]
    assert [i.sha[0] for i in reply_images(model, rows["a3"])] == ["c"]
    assert [i.sha[0] for i in reply_images(model, rows["a4"])] == ["d"]
    assert [(i.sha[0], i.caption) for i in reply_images(model, rows["u1"])] == [("u", "mine.png")]
