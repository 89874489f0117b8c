"""Composer, mention completion, Stop choices, and the queue widget's requests."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, Qt
from pytestqt.qtbot import QtBot

from foya_desktop.core.records import QueueItem
from foya_desktop.ui.composer.composer import Composer
from foya_desktop.ui.composer.queue_widget import QueueWidget

ITEMS = (QueueItem("q1", "first queued", 1), QueueItem("q2", "second\nwith two lines", 2),
         QueueItem("q3", "third", 3))


def test_enter_sends_and_shift_enter_breaks_the_line(qtbot: QtBot) -> None:
    composer = Composer()
    qtbot.addWidget(composer)
    sends: list[int] = []
    composer.send_requested.connect(lambda: sends.append(1))
    qtbot.keyClicks(composer.input, "hello")
    qtbot.keyClick(composer.input, Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier)
    qtbot.keyClicks(composer.input, "world")
    assert composer.input.toPlainText() == "hello\nworld" and sends == []
    qtbot.keyClick(composer.input, Qt.Key.Key_Return)
    assert sends == [1]
    assert composer.take() == ("hello\nworld", [])
    assert composer.input.toPlainText() == ""
    composer.restore("hello\nworld", [("a.png", b"x")])
    assert composer.take() == ("hello\nworld", [("a.png", b"x")])


def test_mention_completion_offers_roster_handles(qtbot: QtBot) -> None:
    composer = Composer()
    qtbot.addWidget(composer)
    composer.show()
    composer.set_mentions(["Omni", "Linus", "Martin"], "Omni")
    qtbot.keyClicks(composer.input, "please @Li")
    assert composer.input.mention_prefix() == "Li"
    completer = composer.input.completer()
    popup = completer.popup()
    assert popup is not None and popup.isVisible()
    assert completer.currentCompletion() == "Linus"
    composer.input.insert_mention("Linus")
    assert composer.input.toPlainText() == "please @Linus "
    qtbot.keyClicks(composer.input, "x@y")
    assert composer.input.mention_prefix() is None  # an e-mail address is not a mention


def test_stop_menu_offers_keep_clear_and_interrupt_per_item(qtbot: QtBot) -> None:
    composer = Composer()
    qtbot.addWidget(composer)
    assert composer.stop_menu_actions() == ["Stop, keep queue", "Stop and clear queue"]
    composer.set_queue(ITEMS)
    actions = composer.stop_menu_actions()
    assert "Interrupt and send next" in actions
    composer.set_busy(True)
    assert composer.stop_button.isEnabled() and composer.send_button.text() == "Queue"
    stops: list[bool] = []
    composer.stop_requested.connect(stops.append)
    composer.stop_button.click()
    assert stops == [True]  # the plain click keeps the queue


def _queue(qtbot: QtBot) -> tuple[QueueWidget, list[tuple[str, tuple[object, ...]]]]:
    widget = QueueWidget()
    qtbot.addWidget(widget)
    widget.show()
    calls: list[tuple[str, tuple[object, ...]]] = []
    widget.move_requested.connect(lambda *a: calls.append(("move", a)))
    widget.edit_requested.connect(lambda *a: calls.append(("edit", a)))
    widget.remove_requested.connect(lambda *a: calls.append(("remove", a)))
    widget.interrupt_requested.connect(lambda *a: calls.append(("interrupt", a)))
    widget.resume_requested.connect(lambda: calls.append(("resume", ())))
    widget.set_items(ITEMS, paused=False)
    return widget, calls


def test_queue_buttons_emit_the_right_requests(qtbot: QtBot) -> None:
    widget, calls = _queue(qtbot)
    assert widget.isVisible() and widget.list.count() == 3
    widget.list.setCurrentRow(1)
    widget.buttons["up"].click()
    widget.buttons["down"].click()
    widget.buttons["remove"].click()
    widget.buttons["send_now"].click()
    assert calls == [("move", ("q2", 0)), ("move", ("q2", 2)), ("remove", ("q2",)), ("interrupt", ("q2",))]
    widget.list.setCurrentRow(0)
    assert not widget.buttons["up"].isEnabled()


def test_queue_drag_reorder_emits_a_move(qtbot: QtBot) -> None:
    widget, calls = _queue(qtbot)
    model = widget.list.model()
    assert model.moveRow(QModelIndex(), 2, QModelIndex(), 0)  # what an internal drag does
    assert calls == [("move", ("q3", 0))]


def test_queue_edit_keeps_full_text_and_asks_the_kernel(qtbot: QtBot) -> None:
    widget, calls = _queue(qtbot)
    item = widget.list.item(1)
    assert item.text() == "second"  # one line shown…
    widget.list.setCurrentItem(item)
    widget.buttons["edit"].click()
    from PySide6.QtWidgets import QPlainTextEdit
    editor = widget.list.findChild(QPlainTextEdit)
    assert editor is not None and editor.toPlainText() == "second\nwith two lines"  # …full text edited
    editor.setPlainText("second, edited")
    widget.list.commitData(editor)
    assert calls == [("edit", ("q2", "second, edited"))]


def test_paused_queue_offers_resume(qtbot: QtBot) -> None:
    widget, calls = _queue(qtbot)
    widget.set_items(ITEMS, paused=True)
    assert widget.resume_button.isVisible() and "paused" in widget.title.text()
    widget.resume_button.click()
    assert calls == [("resume", ())]
    widget.set_items((), paused=False)
    assert not widget.isVisible()
