"""Text that must be read whole: fields as wide as their placeholder, long paths shortened in the middle.

Issue 12 (look and feel): a clipped placeholder or path ("…t/pytest-988/…/foya-home") reads as a
prototype. Two helpers, used wherever such text appears:

- ``fit_placeholder(edit)``: the field is at least as wide as its placeholder (the dialog grows a
  little instead of cutting the sentence), and the placeholder is its tooltip when it has none.
- ``ElidedLabel``: one line that shortens itself in the middle ("/home/ana/…/foya-home"), keeps the
  whole text for ``text()``, a tooltip and selection-free copying (right-click → Copy).
"""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QContextMenuEvent, QGuiApplication, QPainter, QPaintEvent
from PySide6.QtWidgets import QBoxLayout, QFrame, QLayout, QLineEdit, QMenu, QSizePolicy, QWidget

_EDIT_PADDING = 2 * 8 + 4
"""What a themed line edit takes around its text: the style sheet's padding and the frame."""


def fit_placeholder(edit: QLineEdit) -> None:
    """Make ``edit`` wide enough to show its whole placeholder; the placeholder is also its tooltip."""
    text = edit.placeholderText()
    if not text:
        return
    margins = edit.textMargins()
    edit.setMinimumWidth(max(edit.minimumWidth(), edit.fontMetrics().horizontalAdvance(text)
                             + _EDIT_PADDING + margins.left() + margins.right()))
    if not edit.toolTip():
        edit.setToolTip(text)


class ElidedLabel(QFrame):
    """One line of text shortened in the middle to the room it has; the whole text on hover and Copy."""

    def __init__(self, text: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._text = ""
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        self.setText(text)

    def setText(self, text: str) -> None:
        """Show ``text`` (shortened as needed); the tooltip holds all of it."""
        self._text = text
        self.setToolTip(text)
        self.setAccessibleName(text)
        self.update()

    def text(self) -> str:
        """The whole text, never the shortened one."""
        return self._text

    def shown_text(self) -> str:
        """What is painted at the current width (tests)."""
        return self.fontMetrics().elidedText(self._text, Qt.TextElideMode.ElideMiddle,
                                             max(0, self.contentsRect().width()))

    def sizeHint(self) -> QSize:
        """The whole text's width; the layout may give less (then the middle is shortened)."""
        m = self.fontMetrics()
        return QSize(m.horizontalAdvance(self._text) + 4, m.height() + 6)

    def minimumSizeHint(self) -> QSize:
        """Room for a few letters at each end."""
        m = self.fontMetrics()
        return QSize(m.horizontalAdvance("M") * 8, m.height() + 6)

    def paintEvent(self, event: QPaintEvent) -> None:
        """The text, vertically centred, shortened in the middle."""
        super().paintEvent(event)
        painter = QPainter(self)
        painter.setPen(self.palette().color(self.foregroundRole()))
        painter.drawText(self.contentsRect(), int(Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft),
                         self.shown_text())

    def contextMenuEvent(self, event: QContextMenuEvent) -> None:
        """Right-click → Copy: the whole text."""
        menu = QMenu(self)
        menu.addAction(self.tr("Copy"), lambda: QGuiApplication.clipboard().setText(self._text))
        menu.exec(event.globalPos())


def stack_when_narrow(row: QBoxLayout, first: QLayout, second: QLayout, width: int) -> bool:
    """Lay ``first`` and ``second`` side by side in ``row`` when ``width`` holds both, else one above
    the other (nothing clipped, nothing pushed off); True when the direction changed (the owner
    then calls ``updateGeometry``). The status row and the composer's pickers row both do this."""
    margins = row.contentsMargins()
    side_by_side = (first.minimumSize().width() + second.minimumSize().width() + row.spacing()
                    + margins.left() + margins.right())
    wide = width >= side_by_side
    direction = QBoxLayout.Direction.LeftToRight if wide else QBoxLayout.Direction.TopToBottom
    if direction == row.direction():
        return False
    row.setDirection(direction)
    return True
