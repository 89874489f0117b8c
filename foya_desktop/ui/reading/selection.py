"""Text selection inside messages: an in-place, read-only text view opened over one message.

The timeline paints its rows (DESIGN §4), so painted text cannot be selected.
Double-clicking a message (or *Select text* in its menu) lays a read-only
``QTextBrowser`` with the same text over the message's column: drag to select,
Ctrl+C copies, its menu also quotes the selection into the composer, Esc or
clicking elsewhere closes it. Double-click selects the word under the mouse,
as in any text view, so the gesture feels like selecting text in place.
"""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QEvent, QObject, QPoint, QRect, Qt
from PySide6.QtGui import QContextMenuEvent, QFocusEvent, QKeyEvent, QMouseEvent, QTextCursor
from PySide6.QtWidgets import QFrame, QMenu, QTextBrowser, QWidget

from foya_desktop.core.messages import Message
from foya_desktop.ui import theme
from foya_desktop.ui.reading.message_actions import QUOTE, MessageActions
from foya_desktop.ui.timeline.model import HEADER_ROLE
from foya_desktop.ui.timeline.render import reading_gutter
from foya_desktop.ui.timeline.rows import MessageRow
from foya_desktop.ui.timeline.tool_rows import Column
from foya_desktop.ui.window_parts import WindowParts

HEADER_HEIGHT = 34
"""Where a block's first message text starts below its row top (the speaker's name line)."""
SELECT_TEXT = str(QT_TRANSLATE_NOOP("TextSelection", "Select text"))


class SelectableText(QTextBrowser):
    """The read-only text of one message, selectable; closes on Esc or when it loses focus."""

    def __init__(self, message: Message, selection: TextSelection, parent: QWidget) -> None:
        super().__init__(parent)
        self.message = message
        self._selection = selection
        self.setOpenExternalLinks(True)
        self.setFont(theme.body_font())
        self.document().setDocumentMargin(4)
        if message.role == "user":
            self.setPlainText(message.text)
        else:
            self.setMarkdown(message.text)
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setStyleSheet(f"QTextBrowser {{ border: 1px solid {theme.speaker_color('omni').name()}; "
                           "border-radius: 6px; }")
        self.setToolTip(self.tr("Select text and press Ctrl+C to copy; Esc closes"))

    def selected(self) -> str:
        """The selected text with real line breaks."""
        return self.textCursor().selectedText().replace("\u2029", "\n").replace("\u2028", "\n")

    def keyPressEvent(self, event: QKeyEvent) -> None:
        """Esc closes (and does not stop the running reply)."""
        if event.key() == Qt.Key.Key_Escape:
            event.accept()
            self._selection.close()
            return
        super().keyPressEvent(event)

    def focusOutEvent(self, event: QFocusEvent) -> None:
        """Clicking elsewhere closes it (its own context menu does not)."""
        super().focusOutEvent(event)
        if event.reason() != Qt.FocusReason.PopupFocusReason:
            self._selection.close()

    def contextMenuEvent(self, event: QContextMenuEvent) -> None:
        """Copy and Select all, plus Quote in reply (the selection, or the whole message)."""
        menu = self.menu()
        menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        menu.popup(event.globalPos())

    def menu(self) -> QMenu:
        """The context menu as it would open now (tests trigger its actions)."""
        menu = self.createStandardContextMenu()
        menu.addSeparator()
        menu.addAction(self._selection.quote_text(),
                       lambda: self._selection.quote(self.message, self.selected()))
        return menu


class TextSelection(QObject):
    """Opens ``SelectableText`` over a message on double-click or from the message menu.

    Signals:
        (none)
    """

    def __init__(self, window: WindowParts, actions: MessageActions) -> None:
        super().__init__(window.pane)
        self._w, self._actions = window, actions
        self.editor: SelectableText | None = None
        self._row_key = ""
        view = window.pane.timeline_view
        view.viewport().installEventFilter(self)
        view.menu_requested.connect(self._add_action)
        view.rows_moved.connect(self._follow)
        window.pane.timeline_model.modelReset.connect(self.close)

    def quote_text(self) -> str:
        """The label of the overlay's quote action."""
        return QCoreApplication.translate("MessageActions", QUOTE)

    def quote(self, message: Message, selection: str) -> None:
        """Quote the selection (or the message) in the composer, then close."""
        self._actions.quote(message, selection)
        self.close()

    def _add_action(self, menu: QMenu, row_number: int) -> None:
        row = self._row(row_number)
        if row is not None:
            action = menu.addAction(self.tr(SELECT_TEXT))
            action.triggered.connect(lambda _checked=False: self.open(row_number))

    def _row(self, row_number: int) -> MessageRow | None:
        model = self._w.pane.timeline_model
        if not 0 <= row_number < model.rowCount():
            return None
        row = model.row_at(row_number)
        if isinstance(row, MessageRow) and row.message.role in ("user", "assistant") \
                and row.message.text.strip():
            return row
        return None

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """A double-click on a message opens the selectable text with the word under the mouse selected."""
        if event.type() == QEvent.Type.MouseButtonDblClick and isinstance(event, QMouseEvent):
            point = event.position().toPoint()
            index = self._w.pane.timeline_view.indexAt(point)
            if index.isValid() and self.open(index.row()):
                self._select_word(point)
                return True
        return False

    def open(self, row_number: int) -> bool:
        """Lay the selectable text over message row ``row_number``; False if it has no text."""
        row = self._row(row_number)
        if row is None:
            return False
        self.close()
        view = self._w.pane.timeline_view
        self.editor = SelectableText(row.message, self, view.viewport())
        self._row_key = row.key
        self._place(row_number)
        self.editor.show()
        self.editor.setFocus(Qt.FocusReason.OtherFocusReason)
        return True

    def _place(self, row_number: int) -> None:
        """Over the message's text: below the speaker's name, as wide as the reading column."""
        assert self.editor is not None
        view = self._w.pane.timeline_view
        model = self._w.pane.timeline_model
        rect = view.row_rect(row_number)
        width = view.viewport().width()
        gutter = reading_gutter(width)
        col = Column.content(width - 2 * gutter)
        header = bool(model.index(row_number, 0).data(HEADER_ROLE))
        top = rect.top() + (HEADER_HEIGHT if header else 0)
        self.editor.setGeometry(QRect(gutter + col.x - 6, top, col.width + 12, 80))
        doc = self.editor.document()
        doc.setTextWidth(self.editor.viewport().width())
        frame = self.editor.frameWidth() * 2
        room = max(80, view.viewport().height() - 8)
        height = min(round(doc.size().height()) + frame + 2, room)
        top = max(4, min(top, view.viewport().height() - height - 4))
        self.editor.setGeometry(QRect(gutter + col.x - 6, top, col.width + 12, height))

    def _follow(self) -> None:
        """The rows moved (scroll, layout): the overlay stays on its message, or closes if it left."""
        if self.editor is None:
            return
        model = self._w.pane.timeline_model
        row_number = next((i for i in range(model.rowCount()) if model.row_at(i).key == self._row_key), None)
        if row_number is None:
            self.close()
            return
        view = self._w.pane.timeline_view
        if not view.row_rect(row_number).intersects(view.viewport().rect()):
            self.close()

    def _select_word(self, point: QPoint) -> None:
        assert self.editor is not None
        local = self.editor.viewport().mapFrom(self._w.pane.timeline_view.viewport(), point)
        cursor = self.editor.cursorForPosition(local)
        cursor.select(QTextCursor.SelectionType.WordUnderCursor)
        self.editor.setTextCursor(cursor)

    def close(self) -> None:
        """Remove the overlay (Esc, focus elsewhere, another session)."""
        editor, self.editor = self.editor, None
        if editor is not None:
            editor.hide()
            editor.deleteLater()
