"""The keyboard help sheet (F1, Ctrl+/, Help → Keyboard shortcuts).

It lists the window's real shortcuts: the actions' own key sequences, read
when the sheet opens, plus the few keys handled inside widgets (Esc, the send
key, @). So a shortcut changed anywhere can never be listed wrong here.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from foya_desktop.ui import theme

Row = tuple[str, str]
"""(keys as shown, what they do)."""


def action_rows(actions: Sequence[QAction]) -> list[Row]:
    """One row per action with a shortcut (every shortcut of it), in the given order."""
    rows: list[Row] = []
    for action in actions:
        keys = [k.toString(QKeySequence.SequenceFormat.NativeText) for k in action.shortcuts()]
        keys = [k for k in keys if k]
        if keys:
            rows.append((" / ".join(keys), action.text().replace("&", "").rstrip("…")))
    return list(dict.fromkeys(rows))


class HelpSheet(QDialog):
    """Grouped shortcut rows in two columns: keys as key caps, then what they do."""

    def __init__(self, groups: list[tuple[str, list[Row]]], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("helpSheet")
        self.setWindowTitle(self.tr("Keyboard shortcuts"))
        self.rows: list[Row] = [row for _, rows in groups for row in rows]
        body = QWidget()
        grid = QGridLayout(body)
        grid.setHorizontalSpacing(3 * theme.SPACE)
        grid.setVerticalSpacing(theme.SPACE)
        grid.setContentsMargins(2 * theme.SPACE, theme.SPACE, 2 * theme.SPACE, theme.SPACE)
        line = 0
        for title, rows in groups:
            if not rows:
                continue
            heading = QLabel(title)
            heading.setFont(theme.scaled_font("body", bold=True))
            grid.addWidget(heading, line, 0, 1, 2)
            line += 1
            for keys, what in rows:
                grid.addWidget(_keycaps(keys), line, 0, Qt.AlignmentFlag.AlignRight)
                grid.addWidget(QLabel(what), line, 1)
                line += 1
            grid.setRowMinimumHeight(line, theme.SPACE)
            line += 1
        grid.setColumnStretch(1, 1)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        scroll.setWidget(body)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(scroll, 1)
        layout.addWidget(buttons)
        self.resize(560, 620)


def _keycaps(keys: str) -> QWidget:
    """``Ctrl+Shift+K / F1`` as key caps: each key in a small rounded box."""
    box = QWidget()
    box.setAccessibleName(keys)
    row = QHBoxLayout(box)
    row.setContentsMargins(0, 0, 0, 0)
    row.setSpacing(3)
    row.addStretch(1)
    for n, alternative in enumerate(keys.split(" / ")):
        if n:
            row.addWidget(_dim(QLabel("/")))
        parts = [p for p in alternative.replace("++", "+Plus").split("+") if p]
        for part in parts:
            cap = QLabel(part)
            cap.setObjectName("keycap")
            cap.setStyleSheet("#keycap { border: 1px solid palette(mid); border-bottom-width: 2px;"
                              " border-radius: 4px; padding: 1px 6px; background: palette(base); }")
            cap.setFont(theme.scaled_font("caption"))
            row.addWidget(cap)
    return box


def _dim(label: QLabel) -> QLabel:
    label.setEnabled(False)
    return label
