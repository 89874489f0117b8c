"""The tray icon's three states, drawn over the app icon.

Idle is the plain app icon; *working* adds a blue dot (a reply is running
somewhere); *needs you* adds an amber dot with "!" (an approval or question
waits). The dot sits in the lower right corner where desktops leave icons
readable at 16–24 px.
"""

from __future__ import annotations

from typing import Literal

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QFont, QIcon, QPainter, QPen, QPixmap

from foya_desktop.ui.icons import app_icon, app_pixmap

TrayState = Literal["idle", "working", "needs_you"]

_DOT = {"working": "#0ea5e9", "needs_you": "#f59e0b"}


def tray_pixmap(state: TrayState, size: int = 64) -> QPixmap:
    """The app icon with the state's dot."""
    pixmap = app_pixmap(size)
    if state == "idle":
        return pixmap
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    side = size * 0.5
    rect = QRectF(size - side, size - side, side, side).adjusted(1, 1, -1, -1)
    painter.setPen(QPen(QColor("white"), max(1.0, size / 24)))
    painter.setBrush(QColor(_DOT[state]))
    painter.drawEllipse(rect)
    if state == "needs_you":
        font = QFont()
        font.setPixelSize(round(side * 0.75))
        font.setBold(True)
        painter.setFont(font)
        painter.setPen(QColor("#1f2937"))
        painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, "!")
    painter.end()
    return pixmap


def tray_icon(state: TrayState) -> QIcon:
    """The icon for ``state`` at the sizes tray hosts ask for."""
    if state == "idle":
        return app_icon()
    icon = QIcon()
    for size in (16, 22, 32, 48, 64):
        icon.addPixmap(tray_pixmap(state, size))
    return icon
