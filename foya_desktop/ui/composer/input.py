"""The message input: Enter sends, Shift+Enter breaks the line, ``@`` completes VP names.

It grows with its content up to a limit, so a long message stays visible
while it is written. Pasted or dropped files and images become attachments
(the everyday "paste a screenshot" workflow; rules in ``attachments.py``);
only plain text is inserted as text.
"""

from __future__ import annotations

import re

from PySide6.QtCore import QEvent, QMimeData, QObject, QStringListModel, Qt, Signal
from PySide6.QtGui import QKeyEvent, QTextCursor
from PySide6.QtWidgets import QCompleter, QFrame, QPlainTextEdit, QWidget

from foya_desktop.store.preferences import SendKey
from foya_desktop.ui.composer.attachments import carries_attachments, mime_intake

_MENTION = re.compile(r"(?:^|\s)@([\w.-]*)$")
MIN_LINES, MAX_LINES = 2, 12
_POPUP_KEYS = (Qt.Key.Key_Enter, Qt.Key.Key_Return, Qt.Key.Key_Tab, Qt.Key.Key_Backtab, Qt.Key.Key_Escape)


class ComposerInput(QPlainTextEdit):
    """Multi-line input with @mention completion.

    Signals:
        submitted(): the send key was pressed outside the completion popup.
        offered(list, object): files, folders, URLs or an image were pasted or dropped:
            (local paths still to read, an ``Intake`` of what needed no reading).
    """

    submitted = Signal()
    offered = Signal(list, object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setTabChangesFocus(True)
        self._handles = QStringListModel(self)
        self._completer = QCompleter(self._handles, self)
        self._completer.setWidget(self)
        self._completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self._completer.setCompletionMode(QCompleter.CompletionMode.PopupCompletion)
        self._completer.activated.connect(self.insert_mention)
        if (popup := self._completer.popup()) is not None:
            popup.installEventFilter(self)  # Tab accepts too (QCompleter itself: only Enter)
        self._pasted = 0
        self.send_key: SendKey = "enter"
        self.document().contentsChanged.connect(self._fit_height)
        self._fit_height()

    def sends(self, modifiers: Qt.KeyboardModifier) -> bool:
        """Whether Enter with ``modifiers`` sends under :attr:`send_key` (Preferences.send_key).

        "enter": Enter sends, Shift+Enter breaks the line (Ctrl+Enter sends too);
        "ctrl_enter": Ctrl+Enter sends, Enter and Shift+Enter break the line.
        """
        ctrl = bool(modifiers & Qt.KeyboardModifier.ControlModifier)
        if self.send_key == "ctrl_enter":
            return ctrl
        return not (modifiers & Qt.KeyboardModifier.ShiftModifier)

    def set_mentions(self, handles: list[str]) -> None:
        """VP handles offered after ``@`` (the session roster)."""
        self._handles.setStringList(handles)

    def completer(self) -> QCompleter:
        """The mention completer (tests drive its popup)."""
        return self._completer

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Tab (or Shift+Tab) in the completion popup accepts the highlighted handle."""
        popup = self._completer.popup()
        is_tab = isinstance(event, QKeyEvent) and event.type() == QEvent.Type.KeyPress \
            and event.key() in (Qt.Key.Key_Tab, Qt.Key.Key_Backtab)
        if popup is not None and watched is popup and is_tab:
            index = popup.currentIndex()
            if index.isValid():
                self.insert_mention(str(index.data()))
                return True
        return super().eventFilter(watched, event)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        """Enter sends; keys the completion popup needs go to it."""
        popup = self._completer.popup()
        key = event.key()
        if popup is not None and popup.isVisible() and key in _POPUP_KEYS:
            event.ignore()
            return
        if key in (Qt.Key.Key_Enter, Qt.Key.Key_Return) and self.sends(event.modifiers()):
            self.submitted.emit()
            return
        if key in (Qt.Key.Key_Enter, Qt.Key.Key_Return):
            self.insertPlainText("\n")  # Shift+Enter (or Enter under Ctrl+Enter-sends) breaks the line
            return
        super().keyPressEvent(event)
        self._update_completion()

    def mention_prefix(self) -> str | None:
        """The partial handle after an ``@`` right before the cursor, if any."""
        cursor = self.textCursor()
        before = cursor.block().text()[: cursor.positionInBlock()]
        match = _MENTION.search(before)
        return match.group(1) if match else None

    def _update_completion(self) -> None:
        prefix = self.mention_prefix()
        popup = self._completer.popup()
        if popup is None:
            return
        if prefix is None or not self._handles.stringList():
            popup.hide()
            return
        self._completer.setCompletionPrefix(prefix)
        if self._completer.completionCount() == 0:
            popup.hide()
            return
        rect = self.cursorRect()
        rect.setWidth(max(180, popup.sizeHintForColumn(0) + 24))
        self._completer.complete(rect)
        if not popup.currentIndex().isValid():  # Enter or Tab accepts the first match at once
            popup.setCurrentIndex(self._completer.completionModel().index(0, 0))

    def insert_mention(self, handle: str) -> None:
        """Replace the partial ``@prefix`` with the chosen handle and a space."""
        prefix = self.mention_prefix() or ""
        cursor = self.textCursor()
        cursor.movePosition(QTextCursor.MoveOperation.Left, QTextCursor.MoveMode.KeepAnchor, len(prefix))
        cursor.insertText(handle + " ")
        self.setTextCursor(cursor)
        if (popup := self._completer.popup()) is not None:
            popup.hide()

    def canInsertFromMimeData(self, source: QMimeData) -> bool:
        """Files, URLs and images may be pasted or dropped too."""
        return carries_attachments(source) or super().canInsertFromMimeData(source)

    def insertFromMimeData(self, source: QMimeData) -> None:
        """Files and images are offered as attachments; text is inserted as plain text."""
        if carries_attachments(source):
            self._pasted += 1
            paths, found = mime_intake(source, self._pasted)
            self.offered.emit(paths, found)
            return
        super().insertFromMimeData(source)

    def _fit_height(self) -> None:
        lines = max(MIN_LINES, min(MAX_LINES, round(self.document().size().height())))
        margins = self.contentsMargins()
        height = lines * self.fontMetrics().lineSpacing() + 2 * round(self.document().documentMargin())
        self.setFixedHeight(height + margins.top() + margins.bottom() + 2)
