"""Text selection inside messages (issue 11, "Reading long sessions"): double-click a message, or
*Select text* in its menu, and a read-only text view with the message lies over it; drag/keyboard
selection, Ctrl+C copies exactly the selection, *Quote in reply* quotes it, Esc closes. Real kernel."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QGuiApplication, QKeySequence, QTextCursor
from PySide6.QtTest import QTest

from foya_desktop.core.messages import Message, TextPart
from foya_desktop.engine.kernel import Kernel
from foya_desktop.ui.main_window import MainWindow
from foya_desktop.ui.reading.selection import SELECT_TEXT
from tests.ui.helpers import open_session, settle, wait_until

ANSWER = "The loader reads **foya.toml** first.\n\nThen it reads the environment variables."


async def _session(window: MainWindow, kernel: Kernel) -> None:
    sid = await open_session(window, kernel, title="Select")
    await kernel.store.import_messages(sid, [
        Message("u1", sid, "user", (TextPart("How is the config loaded?"),)),
        Message("a1", sid, "assistant", (TextPart(ANSWER),), speaker="omni")])
    await window.pane.show_session(await kernel.sessions.get_session(sid))
    await settle(5)


async def test_select_text_from_the_menu_copies_exactly_the_selection(
        real_window: MainWindow, real_kernel: Kernel, shots: Path) -> None:
    await _session(real_window, real_kernel)
    view = real_window.pane.timeline_view
    menu = view.menu_for_row(1)
    (action,) = [a for a in menu.actions() if a.text() == SELECT_TEXT]
    action.trigger()
    editor = real_window.text_selection.editor
    assert editor is not None and editor.isVisible() and editor.isReadOnly()
    assert editor.toPlainText().startswith("The loader reads foya.toml first.")  # rendered, not markdown
    cursor = editor.textCursor()
    text = editor.toPlainText()
    start = text.index("foya.toml")
    cursor.setPosition(start)
    cursor.setPosition(start + len("foya.toml"), QTextCursor.MoveMode.KeepAnchor)
    editor.setTextCursor(cursor)
    await settle()
    real_window.grab().save(str(shots / "select_text_in_message.png"))
    QGuiApplication.clipboard().setText("")
    QTest.keySequence(editor, QKeySequence(QKeySequence.StandardKey.Copy))
    assert QGuiApplication.clipboard().text() == "foya.toml"
    # Quote in reply from the overlay's menu: the selection goes to the composer as a quote
    (quote,) = [a for a in editor.menu().actions() if a.text() == "Quote in reply"]
    quote.trigger()
    assert real_window.pane.composer.input.toPlainText() == "> foya.toml\n\n"
    assert real_window.text_selection.editor is None


async def test_double_click_selects_the_word_in_place_and_esc_closes(
        real_window: MainWindow, real_kernel: Kernel) -> None:
    await _session(real_window, real_kernel)
    view = real_window.pane.timeline_view
    rect = view.row_rect(1)
    await wait_until(lambda: rect.height() > 0, 5, "laid out")
    # the reply's first line is drawn under the speaker's name; double-click on its text
    point = QPoint(rect.left() + (rect.width() - min(rect.width(), 760)) // 2 + 60, rect.top() + 38)
    QTest.mouseDClick(view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, point)
    await settle()
    editor = real_window.text_selection.editor
    assert editor is not None and editor.isVisible()
    assert editor.selected() and " " not in editor.selected(), "one word selected"
    QTest.keyClick(editor, Qt.Key.Key_Escape)
    await settle()
    assert real_window.text_selection.editor is None
