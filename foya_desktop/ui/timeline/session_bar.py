"""The timeline's visible scroll bar: where the window is in the *whole* session, by seq.

The timeline holds a window of at most ~1,000 rows (DESIGN §4), so Qt's own scroll bar spans
only that window: reaching the top of a 50,000-message session by dragging it meant paging in
150 messages at a time, 26 s (issue 14). This bar spans the session from its first to its last
message seq. Dragging it (or clicking its track) *jumps*: the view scrolls within the window
when the target is loaded, otherwise the window is reloaded around the target seq
(``TimelineModel.jump_to``). Qt's bar keeps working underneath, covered by this one (wheel,
keys, anchors, following the bottom), and this one follows it (``show_position``).
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Qt, QTimer, Signal
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import QAbstractSlider, QScrollBar, QWidget

JUMP_DELAY_MS = 40
"""While the person drags, jump at most this often (each jump may load a page)."""


class SessionScrollBar(QScrollBar):
    """A vertical scroll bar whose values are message seqs of the whole session.

    Signals:
        jump_requested(int): show the message with this seq (or the nearest before it) at the
            top of the viewport.
    """

    jump_requested = Signal(int)

    def __init__(self, inner: QScrollBar, parent: QWidget) -> None:
        super().__init__(Qt.Orientation.Vertical, parent)
        self._inner = inner
        self._pending: int | None = None
        self._timer = QTimer(self, singleShot=True, interval=JUMP_DELAY_MS)
        self._timer.timeout.connect(self._jump_now)
        self.sliderMoved.connect(self._moved)
        self.sliderReleased.connect(self._released)
        self.actionTriggered.connect(self._action)

    def show_position(self, first: int, last: int, top: int, span: int) -> None:
        """The session runs from seq ``first`` to ``last``; the viewport shows ``span`` seqs
        from ``top``. Ignored while the person holds the slider (no fighting their hand)."""
        if self.isSliderDown():
            return
        span = max(1, span)
        self.blockSignals(True)
        try:
            self.setRange(first, max(first, last - span))
            self.setPageStep(span)
            self.setSingleStep(max(1, span // 8))
            self.setValue(min(max(top, first), self.maximum()))
        finally:
            self.blockSignals(False)

    def _moved(self, position: int) -> None:
        self._pending = position
        if not self._timer.isActive():
            self._timer.start()

    def _released(self) -> None:
        self._pending = self.sliderPosition()
        self._timer.stop()
        self._jump_now()

    def _action(self, action: int) -> None:
        """A click on the track or an arrow: ``sliderPosition`` already holds the new place."""
        if action != QAbstractSlider.SliderAction.SliderMove.value:
            self._pending = self.sliderPosition()
            self._timer.stop()
            self._jump_now()

    def _jump_now(self) -> None:
        if self._pending is not None:
            target, self._pending = self._pending, None
            self.jump_requested.emit(target)

    def wheelEvent(self, event: QWheelEvent) -> None:
        """The wheel over the bar scrolls by pixels like the wheel over the rows."""
        QCoreApplication.sendEvent(self._inner, event)
