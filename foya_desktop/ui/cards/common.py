"""Small building blocks shared by the approval and question cards.

Cards are ordinary widgets (they hold buttons and text fields), framed and
tinted so they read as "this needs you" without shouting.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QMargins, QPoint, QRect, QSize, Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QFrame, QLabel, QLayout, QLayoutItem, QPushButton, QVBoxLayout, QWidget

_CARD_STYLE = ("QFrame#card {{ border: 1px solid {border}; border-left: 4px solid {border};"
               " border-radius: 6px; background: palette(base); }}")


def card_frame(frame: QFrame, color: QColor) -> QVBoxLayout:
    """Style ``frame`` as a card with an accent ``color``; returns its content layout."""
    frame.setObjectName("card")
    frame.setStyleSheet(_CARD_STYLE.format(border=color.name()))
    layout = QVBoxLayout(frame)
    layout.setContentsMargins(14, 10, 14, 10)
    layout.setSpacing(6)
    return layout


def recolor(frame: QFrame, color: QColor) -> None:
    """Change a card's accent colour (a state change: waiting → answered)."""
    frame.setStyleSheet(_CARD_STYLE.format(border=color.name()))


def label(text: str = "", *, color: QColor | None = None, bold: bool = False, select: bool = False) -> QLabel:
    """A word-wrapped label, optionally coloured, bold or selectable."""
    widget = QLabel(text)
    widget.setWordWrap(True)
    widget.setTextFormat(Qt.TextFormat.PlainText)
    style = []
    if color is not None:
        style.append(f"color: {color.name()};")
    if bold:
        style.append("font-weight: bold;")
    if style:
        widget.setStyleSheet(" ".join(style))
    if select:
        widget.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    return widget


def button(text: str, slot: Callable[[], None], tip: str = "") -> QPushButton:
    """A push button wired to ``slot`` (never a dialog default: Enter elsewhere must not press it)."""
    widget = QPushButton(text)
    widget.setAutoDefault(False)
    widget.clicked.connect(lambda _checked=False: slot())  # NOTE: ``clicked`` passes ``checked``
    if tip:
        widget.setToolTip(tip)
    return widget


class FlowLayout(QLayout):
    """Lays widgets out left to right and wraps, like words (choice buttons of any count).

    Signals:
        (none of its own)
    """

    def __init__(self, parent: QWidget | None = None, spacing: int = 6) -> None:
        super().__init__(parent)
        self._items: list[QLayoutItem] = []
        self._gap = spacing
        self.setContentsMargins(QMargins(0, 0, 0, 0))

    def addItem(self, item: QLayoutItem) -> None:
        """Qt hands over each added widget as an item."""
        self._items.append(item)

    def count(self) -> int:
        """How many items."""
        return len(self._items)

    def itemAt(self, index: int) -> QLayoutItem | None:
        """The item at ``index`` or ``None``."""
        return self._items[index] if 0 <= index < len(self._items) else None

    def takeAt(self, index: int) -> QLayoutItem | None:
        """Remove and return the item at ``index``."""
        return self._items.pop(index) if 0 <= index < len(self._items) else None

    def expandingDirections(self) -> Qt.Orientation:
        """Never grows on its own."""
        return Qt.Orientation(0)

    def hasHeightForWidth(self) -> bool:
        """The height depends on how many lines the items wrap to."""
        return True

    def heightForWidth(self, width: int) -> int:
        """Height when laid out at ``width``."""
        return self._arrange(QRect(0, 0, width, 0), move=False)

    def setGeometry(self, rect: QRect) -> None:
        """Place the items."""
        super().setGeometry(rect)
        self._arrange(rect, move=True)

    def sizeHint(self) -> QSize:
        """As wide as all items in one line."""
        width = sum(i.sizeHint().width() + self._gap for i in self._items if not i.isEmpty())
        return QSize(width, self.minimumSize().height())

    def minimumSize(self) -> QSize:
        """At least the largest item."""
        size = QSize()
        for item in self._items:
            size = size.expandedTo(item.minimumSize())
        return size

    def _arrange(self, rect: QRect, *, move: bool) -> int:
        x, y, line = rect.x(), rect.y(), 0
        for item in self._items:
            if item.isEmpty():  # hidden widgets take no room
                continue
            hint = item.sizeHint()
            if x + hint.width() > rect.right() + 1 and line > 0:
                x, y, line = rect.x(), y + line + self._gap, 0
            if move:
                item.setGeometry(QRect(QPoint(x, y), hint))
            x += hint.width() + self._gap
            line = max(line, hint.height())
        return y + line - rect.y()
