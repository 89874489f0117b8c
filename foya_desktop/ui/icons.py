"""The application icon and the app's icon set.

The application icon is loaded from the pre-rendered PNGs shipped in
``foya_desktop/resources`` (the same files ``foya install-desktop`` puts in the
hicolor theme), so the window, the tray and the menu entry show one picture.
The icon set (toolbar, composer, menus) is drawn from the SVG line drawings in
``ui/glyphs.py`` by QtSvg's renderer, imported when the first icon is painted.
"""

from __future__ import annotations

from PySide6.QtCore import QByteArray, QPoint, QRect, QRectF, QSize
from PySide6.QtGui import QColor, QGuiApplication, QIcon, QIconEngine, QPainter, QPalette, QPixmap

from foya_desktop.resources import ICON_SIZES, icon_png
from foya_desktop.ui import glyphs


def app_icon() -> QIcon:
    """The window and tray icon: the packaged hicolor PNGs (one SVG source, ``packaging/render_icons.py``)."""
    icon = QIcon()
    for size in ICON_SIZES:
        icon.addFile(str(icon_png(size)), QSize(size, size))
    return icon


def app_pixmap(size: int = 256) -> QPixmap:
    """The application icon at ``size`` pixels (for the welcome page and dialogs)."""
    return app_icon().pixmap(size, size)


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
        self._pixmaps: dict[tuple[int, int, str], QPixmap] = {}
        """Drawn pixmaps by size and colour: a button asks for its icon at every paint, and parsing
        and rendering the SVG each time was most of repainting a toolbar."""

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
        key = (size.width(), size.height(), self._color_for(mode))  # a theme switch: a new colour, a new key
        pixmap = self._pixmaps.get(key)
        if pixmap is None:
            pixmap = QPixmap(size)
            pixmap.fill(QColor(0, 0, 0, 0))  # clear (not Qt.GlobalColor: theme.platform_palette_is_dark)
            painter = QPainter(pixmap)
            painter.setRenderHint(QPainter.RenderHint.Antialiasing)
            self.paint(painter, QRect(QPoint(0, 0), size), mode, state)
            painter.end()
            if len(self._pixmaps) >= 16:
                self._pixmaps.clear()
            self._pixmaps[key] = pixmap
        return QPixmap(pixmap)  # a shared copy (Qt's implicit sharing): the caller may set its ratio

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
