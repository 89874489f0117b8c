"""Quote and edit-as-new on every message (Yeaft "quote/edit-as-new message action", Y37).

Quote puts the message (or the text selected in it) into the composer as a
Markdown block quote; edit-as-new puts one of your own messages' text and
images back into the composer as a new message — the original stays where it
is (unlike rewind, nothing is removed).
"""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP, QObject
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu

from foya_desktop.core.messages import ImagePart, Message
from foya_desktop.ui.timeline.rows import MessageRow
from foya_desktop.ui.window_parts import WindowParts

QUOTE = str(QT_TRANSLATE_NOOP("MessageActions", "Quote in reply"))
EDIT_AS_NEW = str(QT_TRANSLATE_NOOP("MessageActions", "Edit as new message"))


def quoted(text: str) -> str:
    """``text`` as a Markdown block quote, followed by an empty line to write under."""
    lines = text.strip().splitlines() or [""]
    return "\n".join(f"> {line}" if line else ">" for line in lines) + "\n\n"


class MessageActions(QObject):
    """Adds Quote and Edit as new to the timeline's context menu.

    Signals:
        (none)
    """

    def __init__(self, window: WindowParts) -> None:
        super().__init__(window.pane)
        self._w = window
        window.pane.timeline_view.menu_requested.connect(self._add_actions)

    def _add_actions(self, menu: QMenu, row_number: int) -> None:
        model = self._w.pane.timeline_model
        if not 0 <= row_number < model.rowCount():
            return
        row = model.row_at(row_number)
        if not isinstance(row, MessageRow):
            return
        message = row.message
        actions = [self._action(menu, self.tr(QUOTE), lambda: self.quote(message))]
        if message.role == "user" and self._w.pane.composer.isEnabled():
            actions.append(self._action(menu, self.tr(EDIT_AS_NEW), lambda: self._w.runner.spawn(
                self.edit_as_new(message), self.tr("Edit as new"))))
        first = menu.actions()[0] if menu.actions() else None
        for action in actions:
            menu.insertAction(first, action) if first is not None else menu.addAction(action)

    @staticmethod
    def _action(menu: QMenu, text: str, slot: object) -> QAction:
        action = QAction(text, menu)
        action.triggered.connect(lambda _checked=False: slot())  # type: ignore[operator]
        return action

    def quote(self, message: Message, selection: str = "") -> None:
        """Insert the message (or ``selection``) as a quote at the composer's cursor."""
        composer = self._w.pane.composer
        cursor = composer.input.textCursor()
        before = composer.input.toPlainText()[: cursor.position()]
        gap = "\n" if before and not before.endswith("\n") else ""
        cursor.insertText(gap + quoted(selection or message.text))
        composer.input.setTextCursor(cursor)
        composer.input.setFocus()

    async def edit_as_new(self, message: Message) -> None:
        """Your message's text and images in the composer, to change and send as a new message."""
        composer = self._w.pane.composer
        composer.input.setPlainText(message.text)
        for part in message.parts:
            if isinstance(part, ImagePart):
                data = await self._w.kernel.history.read_artifact(part.artifact)
                composer.add_attachment(part.name or "image.png", data)
        composer.input.setFocus()
