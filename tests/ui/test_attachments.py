"""Attachments by paste, drop and the attach button, with real QMimeData, on the real kernel.

Issue 11 "Attachments"; Y66 (images go straight to the vision model with the message).
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QMimeData, QPoint, QPointF, Qt, QUrl
from PySide6.QtGui import QColor, QDragEnterEvent, QDropEvent, QImage
from PySide6.QtWidgets import QApplication, QWidget
from pytestqt.qtbot import QtBot

from foya_desktop.engine.kernel import Kernel
from foya_desktop.ui.composer import attachments as att
from foya_desktop.ui.composer.composer import Composer
from foya_desktop.ui.main_window import MainWindow
from tests.fakeprovider import FakeProviderServer
from tests.fakeprovider.script import Reply
from tests.ui.helpers import Events, open_session, settle, wait_until


def _image(color: str = "#3a7") -> QImage:
    image = QImage(64, 40, QImage.Format.Format_ARGB32)
    image.fill(QColor(color))
    return image


def _png_file(path: Path) -> Path:
    path.write_bytes(att.png_bytes(_image()))
    return path


def _files(*paths: Path | str) -> QMimeData:
    data = QMimeData()
    data.setUrls([QUrl.fromLocalFile(str(p)) if isinstance(p, Path) else QUrl(p) for p in paths])
    return data


def _drop(widget: QWidget, data: QMimeData) -> bool:
    """Deliver a real drag-enter and drop of ``data`` to ``widget``; True when it was accepted."""
    pos = QPoint(widget.width() // 2, widget.height() // 2)
    enter = QDragEnterEvent(QPointF(pos), Qt.DropAction.CopyAction, data, Qt.MouseButton.LeftButton,
                            Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(widget, enter)
    if not enter.isAccepted():
        return False
    drop = QDropEvent(QPointF(pos), Qt.DropAction.CopyAction, data, Qt.MouseButton.LeftButton,
                      Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(widget, drop)
    return drop.isAccepted()


def test_pasting_an_image_attaches_a_png_with_a_thumbnail(qtbot: QtBot) -> None:
    """The PySide6 6.12 ``QImage.save(buffer, b"PNG")`` traceback is gone: a pasted image attaches."""
    composer = Composer()
    qtbot.addWidget(composer)
    composer.show()
    data = QMimeData()
    data.setImageData(_image())
    composer.input.insertFromMimeData(data)
    (only,) = composer.attachments()
    assert only.kind == "image" and only.name == "pasted-1.png" and only.data.startswith(b"\x89PNG")
    assert composer.chips.isVisible() and len(composer.chips.thumbnails()) == 1
    assert composer.chips.chip_texts() == [f"pasted-1.png · {only.size_text}"]
    assert composer.input.toPlainText() == ""
    text, images = composer.take()
    assert text == "" and images == [("pasted-1.png", only.data)]


def test_plain_text_paste_stays_text(qtbot: QtBot) -> None:
    composer = Composer()
    qtbot.addWidget(composer)
    data = QMimeData()
    data.setText("just words")
    composer.input.insertFromMimeData(data)
    assert composer.input.toPlainText() == "just words" and composer.attachments() == []


def test_remove_button_drops_one_chip(qtbot: QtBot) -> None:
    composer = Composer()
    qtbot.addWidget(composer)
    composer.show()
    composer.add_attachment("a.txt", b"alpha")
    composer.add_attachment("b.png", att.png_bytes(_image()))
    assert [a.name for a in composer.attachments()] == ["a.txt", "b.png"]
    composer.chips.remove_buttons()[0].click()
    assert [a.name for a in composer.attachments()] == ["b.png"]
    composer.chips.remove_buttons()[0].click()
    assert composer.attachments() == [] and not composer.chips.isVisible()


def test_limits_are_stated_and_enforced() -> None:
    """Size limits are in the attach button's tooltip and in every refusal."""
    composer = Composer()
    assert att.limits_text() in composer.attach_button.toolTip()
    big_text = att.classify("big.log", b"x" * (att.MAX_TEXT_BYTES + 1))
    assert isinstance(big_text, str) and "at most 256 KB" in big_text
    binary = att.classify("tool.bin", b"\x7fELF\x00\x01\x02")
    assert isinstance(binary, str) and "neither an image" in binary
    latin1 = att.classify("old.txt", "café".encode("latin-1"))
    assert isinstance(latin1, str)
    assert isinstance(att.classify("ok.md", "# Überschrift\n".encode()), att.Attachment)
    for i in range(att.MAX_ATTACHMENTS + 1):
        composer.add_attachment(f"n{i}.txt", b"x")
    assert len(composer.attachments()) == att.MAX_ATTACHMENTS
    assert "at most 10 per message" in composer.notice.text()
    composer.deleteLater()


def test_text_files_are_sent_as_fenced_content() -> None:
    text = att.message_text("Please review", [att.Attachment("text", "a.py", b"print(1)\n"),
                                              att.Attachment("image", "x.png", b"")])
    assert text == "Please review\n\nAttached file `a.py` (9 B):\n```\nprint(1)\n```"
    fenced = att.message_text("", [att.Attachment("text", "r.md", b"```py\nx\n```")])
    assert fenced.startswith("Attached file `r.md`") and "````\n```py" in fenced


async def test_pasted_and_dropped_files_on_the_real_window(real_window: MainWindow, real_kernel: Kernel,
                                                          tmp_path: Path, shots: Path) -> None:
    """Files from the clipboard and drops on the composer: image, text, refused binary, folder, URL."""
    await open_session(real_window, real_kernel, title="Attach")
    composer = real_window.pane.composer
    png = _png_file(tmp_path / "shot.png")
    notes = tmp_path / "notes.md"
    notes.write_text("# Notes\n- one\n")
    blob = tmp_path / "data.bin"
    blob.write_bytes(b"\x00\x01\x02binary")
    folder = tmp_path / "src"
    folder.mkdir()
    QApplication.clipboard().setMimeData(_files(png, notes))
    try:
        composer.input.setFocus()
        composer.input.paste()
        await wait_until(lambda: len(composer.attachments()) == 2, what="pasted files attached")
    finally:
        # NOTE: a QMimeData made in Python and left in the clipboard is destroyed by Qt's exit
        # handlers after the interpreter is gone, and shiboken's destructor then crashes (SIGSEGV,
        # exit 139, after every test passed). Free it while Python still runs.
        QApplication.clipboard().clear()
    assert [(a.kind, a.name) for a in composer.attachments()] == [("image", "shot.png"), ("text", "notes.md")]
    assert _drop(composer, _files(blob, folder, "https://example.org/spec"))
    await wait_until(composer.notice.isVisible, what="refusal shown")
    await real_window.runner.drain()
    assert "data.bin is neither an image" in composer.notice.text()
    assert f"{folder}{'/'}" in composer.input.toPlainText()
    assert "https://example.org/spec" in composer.input.toPlainText()
    assert len(composer.attachments()) == 2, "a folder is a mention, never a file"
    await settle()
    real_window.grab().save(str(shots / "attachments_composer.png"))


async def test_dropping_a_screenshot_on_the_timeline_and_sending_it(
        real_window: MainWindow, real_kernel: Kernel, fake_provider: FakeProviderServer, tmp_path: Path) -> None:
    """Y66: a screenshot dropped on the timeline goes to the model with the message; text files inline."""
    sid = await open_session(real_window, real_kernel, title="Vision")
    events = Events(real_kernel)
    fake_provider.script(Reply(text="A green rectangle."))
    viewport = real_window.pane.timeline_view.viewport()
    data = QMimeData()
    data.setImageData(_image("#2b5"))
    assert _drop(viewport, data)
    notes = tmp_path / "ctx.txt"
    notes.write_text("context line\n")
    assert _drop(viewport, _files(notes))
    composer = real_window.pane.composer
    await wait_until(lambda: len(composer.attachments()) == 2, what="both attached")
    composer.input.setPlainText("What is in the picture?")
    real_window.pane.send()
    await events.turns(1, sid)
    content = fake_provider.requests[0].body["messages"][-1]["content"]
    kinds = [part["type"] for part in content]
    assert "image_url" in kinds
    words = " ".join(part.get("text", "") for part in content)
    assert "What is in the picture?" in words and "Attached file `ctx.txt`" in words and "context line" in words
    assert composer.attachments() == [] and not composer.chips.isVisible()


async def test_plain_text_drag_is_not_taken_by_the_timeline(real_window: MainWindow, real_kernel: Kernel) -> None:
    await open_session(real_window, real_kernel)
    data = QMimeData()
    data.setText("words")
    assert not _drop(real_window.pane.timeline_view.viewport(), data)


async def test_the_attach_button_opens_a_file_dialog_and_attaches_what_is_chosen(
        real_window: MainWindow, real_kernel: Kernel, tmp_path: Path) -> None:
    """The third way in (after drop and paste): the paper-clip button's file dialog, on the real
    window; an image and a text file chosen there become chips, a binary file is refused."""
    from PySide6.QtWidgets import QFileDialog

    await open_session(real_window, real_kernel, title="Attach by button")
    composer = real_window.pane.composer
    png = _png_file(tmp_path / "chosen.png")
    notes = tmp_path / "chosen.md"
    notes.write_text("# chosen\n")
    composer.attach_button.click()
    await wait_until(lambda: any(isinstance(w, QFileDialog) and w.isVisible()
                                 for w in QApplication.topLevelWidgets()), what="the file dialog")
    dialog = next(w for w in QApplication.topLevelWidgets() if isinstance(w, QFileDialog) and w.isVisible())
    assert dialog.fileMode() == QFileDialog.FileMode.ExistingFiles
    assert any("*.png" in f for f in dialog.nameFilters())
    dialog.filesSelected.emit([str(png), str(notes)])  # what the dialog emits when the person chooses them
    dialog.reject()
    await wait_until(lambda: len(composer.attachments()) == 2, what="chosen files attached")
    assert [(a.kind, a.name) for a in composer.attachments()] == [("image", "chosen.png"), ("text", "chosen.md")]


async def test_the_attach_dialog_opens_in_the_session_s_folder(real_window: MainWindow, real_kernel: Kernel,
                                                               tmp_path: Path, shots: Path) -> None:
    """Not in the directory the app was started from: the files a session works on are in its folder."""
    from PySide6.QtWidgets import QFileDialog

    from tests.ui.helpers import dialog_of

    folder = tmp_path / "project"
    folder.mkdir()
    (folder / "notes.md").write_text("notes")
    await open_session(real_window, real_kernel, workdir=str(folder))
    real_window.pane.composer.attach_button.click()
    dialog = await dialog_of(QFileDialog)
    await settle()
    dialog.grab().save(str(shots / "attach_dialog_folder.png"))
    opened = dialog.directory().absolutePath()
    dialog.reject()
    assert Path(opened) == folder
