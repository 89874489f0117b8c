"""Find in the session (Ctrl+F): by text and by speaker, with previous/next and a match count.

The matches come from the store's full-text index for the whole session —
every page of a 50,000-message session, not only the rows on screen — and
next/previous bring each match on screen (``jump.reveal``), loading its page
when needed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QComboBox, QFrame, QHBoxLayout, QLabel, QLineEdit, QToolButton, QWidget

from foya_desktop.core.errors import FoyaError
from foya_desktop.ui import theme
from foya_desktop.ui.aio import Latest, TaskRunner
from foya_desktop.ui.error_text import error_text
from foya_desktop.ui.reading.jump import reveal

if TYPE_CHECKING:
    from foya_desktop.ui.kernel_api import KernelApi
    from foya_desktop.ui.session_pane import SessionPane
    from foya_desktop.ui.speakers import SpeakerDirectory

DEBOUNCE_MS = 200


class FindBar(QFrame):
    """The find strip above the composer.

    Signals:
        matched(int): a search finished with this many matches (tests wait on it).
        moved(str): the match with this message id is on screen now.
    """

    matched = Signal(int)
    moved = Signal(str)

    def __init__(self, pane: SessionPane, kernel: KernelApi, speakers: SpeakerDirectory,
                 runner: TaskRunner, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._pane, self._kernel, self._speakers = pane, kernel, speakers
        self._matches: list[str] = []
        self._current = -1
        self._task = Latest(runner)
        self._generation = 0
        self.setObjectName("findBar")
        self.setStyleSheet("#findBar { border-top: 1px solid palette(mid); }")
        self.text = QLineEdit(placeholderText=self.tr("Find in this session"))
        self.speaker = QComboBox()
        self.count = QLabel("")
        self.count.setFont(theme.small_font())
        self.prev_button = _button("↑", self.tr("Previous match (Shift+Enter)"))
        self.next_button = _button("↓", self.tr("Next match (Enter)"))
        close = _button("✕", self.tr("Close (Esc)"))
        self._timer = QTimer(self, singleShot=True, interval=DEBOUNCE_MS)
        self._timer.timeout.connect(self.run)
        self.text.textChanged.connect(lambda _t: self._timer.start())
        self.speaker.currentIndexChanged.connect(lambda _i: self._timer.start())
        self.prev_button.clicked.connect(lambda: self.step(-1))
        self.next_button.clicked.connect(lambda: self.step(1))
        close.clicked.connect(self.close_bar)
        row = QHBoxLayout(self)
        row.setContentsMargins(12, 4, 12, 4)
        row.addWidget(self.text, 1)
        row.addWidget(self.speaker)
        row.addWidget(self.count)
        row.addWidget(self.prev_button)
        row.addWidget(self.next_button)
        row.addWidget(close)
        self.hide()

    def open_bar(self) -> None:
        """Show and focus the bar, with the session's speakers to choose from."""
        session = self._pane.session
        self.speaker.blockSignals(True)
        self.speaker.clear()
        self.speaker.addItem(self.tr("Anyone"), None)
        self.speaker.addItem(self.tr("You"), "user")
        for vp_id in session.roster if session else ():
            self.speaker.addItem(self._speakers.name(vp_id), vp_id)
        self.speaker.blockSignals(False)
        self.show()
        self.text.setFocus()
        self.text.selectAll()

    def close_bar(self) -> None:
        """Hide the bar and forget the matches."""
        self.hide()
        self._matches, self._current = [], -1
        self.count.setText("")

    def keyPressEvent(self, event: QKeyEvent) -> None:
        """Enter: next; Shift+Enter: previous; Esc: close."""
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            shift = bool(event.modifiers() & Qt.KeyboardModifier.ShiftModifier)
            if self._timer.isActive():
                self._timer.stop()
                self.run(then_step=-1 if shift else 1)
            else:
                self.step(-1 if shift else 1)
            return
        if event.key() == Qt.Key.Key_Escape:
            self.close_bar()
            return
        super().keyPressEvent(event)

    def run(self, then_step: int = 0) -> None:
        """Search the whole session now."""
        self._generation += 1
        self._task.start(self._run(self._generation, then_step), self.tr("Find"))

    async def _run(self, generation: int, then_step: int) -> None:
        session = self._pane.session
        text, speaker = self.text.text().strip(), self.speaker.currentData()
        if session is None or (not text and not speaker):
            self._matches, self._current = [], -1
            self.count.setText("")
            return
        try:
            found = await self._kernel.search.find_in_session(session.id, text, speaker)
        except FoyaError as error:
            self.count.setText(f"⚠ {error_text(error)}")
            return
        if generation != self._generation:
            return
        self._matches, self._current = found, -1
        self._show_count()
        self.matched.emit(len(found))
        if found:
            await self._go(len(found) - 1 if then_step < 0 else 0 if then_step > 0 else len(found) - 1)

    def step(self, delta: int) -> None:
        """The next (1) or previous (-1) match, wrapping around."""
        if self._matches:
            target = (self._current + delta) % len(self._matches)
            self._task.start(self._go(target), self.tr("Find"))

    async def _go(self, index: int) -> None:
        self._current = index
        self._show_count()
        message_id = self._matches[index]
        try:
            shown = await reveal(self._pane, self._kernel, message_id)
        except FoyaError as error:
            self.count.setText(f"⚠ {error_text(error)}")
            return
        if shown:
            self.moved.emit(message_id)

    def _show_count(self) -> None:
        total = len(self._matches)
        self.count.setText(self.tr("{current} of {total}").format(current=self._current + 1, total=total)
                           if total and self._current >= 0
                           else self.tr("%n match(es)", "", total) if total else self.tr("No matches"))
        self.prev_button.setEnabled(total > 0)
        self.next_button.setEnabled(total > 0)

    def position(self) -> tuple[int, int]:
        """(current match, 1-based, and the total) — tests."""
        return self._current + 1, len(self._matches)


def _button(text: str, tip: str) -> QToolButton:
    button = QToolButton()
    button.setText(text)
    button.setToolTip(tip)
    button.setAutoRaise(True)
    return button
