"""The application icon and small drawn glyphs.

The application icon is loaded from the pre-rendered PNGs shipped in
``foya_desktop/resources`` (the same files ``foya install-desktop`` puts in the
hicolor theme), so the window, the tray and the menu entry show one picture
and no SVG image plugin is needed.
"""

from __future__ import annotations

from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QColor, QIcon, QPainter, QPixmap

from foya_desktop.resources import ICON_SIZES, icon_png


def app_icon() -> QIcon:
    """The window and tray icon: the packaged hicolor PNGs (one SVG source, ``packaging/render_icons.py``)."""
    icon = QIcon()
    for size in ICON_SIZES:
        icon.addFile(str(icon_png(size)), QSize(size, size))
    return icon


def app_pixmap(size: int = 256) -> QPixmap:
    """The application icon at ``size`` pixels (for the welcome page and dialogs)."""
    return app_icon().pixmap(size, size)


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
