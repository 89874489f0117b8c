"""The application icon, drawn in code.

Drawing it avoids a resource-loading path that can fail in frozen or
sandboxed installs, and needs no SVG module. ``resources/foya.png`` is a
rendering of the same icon for desktop files and installers.
"""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QFont, QIcon, QLinearGradient, QPainter, QPixmap


def app_pixmap(size: int = 256) -> QPixmap:
    """A rounded blue square with a white "F"."""
    pixmap = QPixmap(size, size)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    gradient = QLinearGradient(0, 0, size, size)
    gradient.setColorAt(0, QColor("#3b82f6"))
    gradient.setColorAt(1, QColor("#6d28d9"))
    painter.setBrush(gradient)
    painter.setPen(Qt.PenStyle.NoPen)
    margin = size * 0.06
    side = size - 2 * margin
    painter.drawRoundedRect(QRectF(margin, margin, side, side), size * 0.22, size * 0.22)
    font = QFont()
    font.setPixelSize(round(size * 0.6))
    font.setBold(True)
    painter.setFont(font)
    painter.setPen(QColor("white"))
    painter.drawText(QRectF(0, 0, size, size), Qt.AlignmentFlag.AlignCenter, "F")
    painter.end()
    return pixmap


def app_icon() -> QIcon:
    """The window and tray icon at the sizes desktops ask for."""
    icon = QIcon()
    for size in (16, 22, 32, 48, 64, 128, 256):
        icon.addPixmap(app_pixmap(size))
    return icon


def fork_icon(size: int = 18, color: str = "#475569") -> QIcon:
    """Two overlapping pages: "make a copy of this conversation" (drawn, so no font needs the glyph)."""
    pixmap = QPixmap(size, size)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    pen = painter.pen()
    pen.setColor(QColor(color))
    pen.setWidthF(max(1.2, size / 12))
    painter.setPen(pen)
    unit = size / 18
    painter.drawRoundedRect(QRectF(2 * unit, 2 * unit, 10 * unit, 10 * unit), 2 * unit, 2 * unit)
    painter.setBrush(QColor("#ffffff"))
    painter.drawRoundedRect(QRectF(6 * unit, 6 * unit, 10 * unit, 10 * unit), 2 * unit, 2 * unit)
    painter.end()
    return QIcon(pixmap)
