"""The application icon, drawn in code.

Drawing it avoids a resource-loading path that can fail in frozen or
sandboxed installs, and needs no SVG module. ``resources/foya.png`` is a
rendering of the same icon for desktop files and installers.
"""

from __future__ import annotations

from PySide6.QtCore import QByteArray, QPoint, QRect, QRectF, QSize, Qt
from PySide6.QtGui import (
    QColor,
    QFont,
    QGuiApplication,
    QIcon,
    QIconEngine,
    QLinearGradient,
    QPainter,
    QPalette,
    QPixmap,
)

from foya_desktop.ui import glyphs


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


def fork_icon(size: int = 18, color: str | None = None) -> QIcon:
    """Two overlapping pages: "make a copy of this conversation" (the set's "fork" glyph, any size)."""
    del size  # the glyph engine draws at whatever size the button asks for
    return icon("fork", color)


class _GlyphEngine(QIconEngine):
    """Draws a glyph of ``ui/glyphs.py`` at any size, in the palette's current text colour.

    Asking the palette at paint time makes every icon follow a theme switch
    without anyone re-creating it; ``color`` pins a colour instead (white on
    the blue Send button).
    """

    def __init__(self, name: str, color: str | None) -> None:
        super().__init__()
        self._name, self._color = name, color

    def _color_for(self, mode: QIcon.Mode) -> str:
        if self._color is not None:
            return self._color
        group = QPalette.ColorGroup.Disabled if mode == QIcon.Mode.Disabled else QPalette.ColorGroup.Normal
        return QGuiApplication.palette().color(group, QPalette.ColorRole.WindowText).name()

    def paint(self, painter: QPainter, rect: QRect, mode: QIcon.Mode, state: QIcon.State) -> None:
        from PySide6.QtSvg import QSvgRenderer  # the first icon drawn pays, not start-up

        renderer = QSvgRenderer(QByteArray(glyphs.svg(self._name, self._color_for(mode))))
        renderer.render(painter, QRectF(rect))

    def pixmap(self, size: QSize, mode: QIcon.Mode, state: QIcon.State) -> QPixmap:
        pixmap = QPixmap(size)
        pixmap.fill(Qt.GlobalColor.transparent)
        painter = QPainter(pixmap)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        self.paint(painter, QRect(QPoint(0, 0), size), mode, state)
        painter.end()
        return pixmap

    def scaledPixmap(self, size: QSize, mode: QIcon.Mode, state: QIcon.State, scale: float) -> QPixmap:
        pixmap = self.pixmap(size * scale, mode, state)
        pixmap.setDevicePixelRatio(scale)
        return pixmap

    def clone(self) -> QIconEngine:
        return _GlyphEngine(self._name, self._color)


def icon(name: str, color: str | None = None) -> QIcon:
    """An icon of the app's set by name ("new", "send", "stop", "attach", ...; see ``ui/glyphs.py``)."""
    if name not in glyphs.GLYPHS:
        raise KeyError(f"no icon named {name!r}")
    return QIcon(_GlyphEngine(name, color))
