"""A read-only unified diff with added lines green, removed lines red, hunks blue.

The person approves an edit by reading it, so the diff is shown as the tool
will apply it (the engine computed it in ``plan``), line for line, with whole
lines tinted rather than only their characters.
"""

from __future__ import annotations

from PySide6.QtGui import QColor, QTextBlock, QTextCursor, QTextFormat
from PySide6.QtWidgets import QFrame, QPlainTextEdit, QTextEdit, QWidget

from foya_desktop.ui import theme

MAX_VISIBLE_LINES = 12
"""Longer diffs scroll inside the card instead of pushing the buttons off screen."""
MAX_TINTED_LINES = 5000
"""Beyond this the rest of a huge diff stays plain (tinting is one selection per line)."""

_LIGHT = {"+": ("#1a7f37", "#e6ffec"), "-": ("#cf222e", "#ffebe9"), "@": ("#0969da", "#ddf4ff")}
_DARK = {"+": ("#7ee787", "#12361f"), "-": ("#ffa198", "#4a1c1f"), "@": ("#79c0ff", "#0c2d6b")}


def line_kind(line: str) -> str:
    """``+`` added, ``-`` removed, ``@`` hunk header, ``h`` file header, `` `` context."""
    if line.startswith(("+++", "---")):
        return "h"
    if line.startswith("@@"):
        return "@"
    if line[:1] in ("+", "-"):
        return line[:1]
    return " "


class DiffView(QPlainTextEdit):
    """Shows one unified diff; tall enough for short diffs, scrolling for long ones.

    Signals:
        (none of its own; read-only)
    """

    def __init__(self, diff: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setReadOnly(True)
        self.setFont(theme.mono_font())
        self.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setPlainText(diff.rstrip("\n"))
        self.kinds = [line_kind(line) for line in diff.rstrip("\n").split("\n")]
        """The kind of every line, in order (tests read it)."""
        self._tint()
        lines = min(MAX_VISIBLE_LINES, max(1, len(self.kinds)))
        bar = self.horizontalScrollBar().sizeHint().height()
        self.setFixedHeight(lines * self.fontMetrics().lineSpacing() + 2 * self.frameWidth() + 8 + bar)

    def _tint(self) -> None:
        """Per line: a full-width background (NOTE: Qt draws it only for a cursor without a
        selection) and the text colour on the selected line."""
        colors = _DARK if theme.is_dark() else _LIGHT
        selections = []
        block = self.document().begin()
        for kind in self.kinds[:MAX_TINTED_LINES]:
            if kind in colors:
                fg, bg = colors[kind]
                selections.append(_selection(block, background=QColor(bg)))
                selections.append(_selection(block, foreground=QColor(fg)))
            elif kind == "h":
                selections.append(_selection(block, foreground=theme.dim_color(), bold=True))
            block = block.next()
        self.setExtraSelections(selections)

    def line_colors(self) -> dict[int, tuple[QColor | None, QColor | None]]:
        """Line number → (foreground, full-width background) as tinted (tests read it)."""
        out: dict[int, tuple[QColor | None, QColor | None]] = {}
        for selection in self.extraSelections():
            line = selection.cursor.blockNumber()
            fg, bg = out.get(line, (None, None))
            fmt = selection.format
            if fmt.hasProperty(QTextFormat.Property.FullWidthSelection):
                bg = fmt.background().color()
            elif fmt.hasProperty(QTextFormat.Property.ForegroundBrush):
                fg = fmt.foreground().color()
            out[line] = (fg, bg)
        return out


def _selection(block: QTextBlock, *, foreground: QColor | None = None, background: QColor | None = None,
               bold: bool = False) -> QTextEdit.ExtraSelection:
    selection = QTextEdit.ExtraSelection()
    cursor = QTextCursor(block)
    if background is None:
        cursor.select(QTextCursor.SelectionType.LineUnderCursor)
    selection.cursor = cursor
    fmt = selection.format
    if background is not None:
        fmt.setBackground(background)
        fmt.setProperty(QTextFormat.Property.FullWidthSelection, True)
    if foreground is not None:
        fmt.setForeground(foreground)
    if bold:
        fmt.setFontWeight(700)
    selection.format = fmt
    return selection
