"""The window and tray show the same icon the menu entry installs: every packaged size loads
(a missing or unreadable PNG would silently give an empty icon)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from PySide6.QtCore import QSize
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication

from foya_desktop import DESKTOP_ID
from foya_desktop.resources import ICON_SIZES
from foya_desktop.ui.icons import app_icon, app_pixmap, icon


def test_every_packaged_size_loads(qapp: QApplication) -> None:
    icon = app_icon()
    assert not icon.isNull()
    assert set(icon.availableSizes()) == {QSize(size, size) for size in ICON_SIZES}
    pixmap = app_pixmap(72)
    assert not pixmap.isNull() and pixmap.width() <= 72


def test_the_application_reports_the_installed_desktop_file_name() -> None:
    """Docks and Wayland group the windows under the menu entry `foya install-desktop` writes.

    In a subprocess: ``make_application`` restyles the application it is given."""
    from foya_desktop.cli.install_desktop import DesktopFiles

    probe = "from foya_desktop.app import make_application; print(make_application([]).desktopFileName())"
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env,
                         timeout=120, check=True)
    name = out.stdout.strip()
    assert name == DESKTOP_ID
    assert DesktopFiles(Path("/x")).desktop_entry.name == f"{name}.desktop"


def test_a_glyph_is_drawn_once_per_size_and_colour(qapp: QApplication) -> None:
    """A button asks for its icon at every paint: the SVG is rendered once per size and colour,
    and a new palette colour (a theme switch) still gets an icon drawn in it."""
    glyph = icon("fork")
    first, again = glyph.pixmap(QSize(18, 18)), glyph.pixmap(QSize(18, 18))
    assert not first.isNull() and first.cacheKey() == again.cacheKey()  # the same pixels, not redrawn
    assert glyph.pixmap(QSize(24, 24)).size() == QSize(24, 24)
    assert icon("fork", "#ff0000").pixmap(QSize(18, 18)).toImage() != first.toImage()
    before = QPalette(qapp.palette())
    switched = QPalette(before)
    switched.setColor(QPalette.ColorRole.WindowText, QColor("#00c000"))
    qapp.setPalette(switched)
    try:
        themed = glyph.pixmap(QSize(18, 18))
        assert themed.cacheKey() != first.cacheKey() and themed.toImage() != first.toImage()
    finally:
        qapp.setPalette(before)
    assert glyph.pixmap(QSize(18, 18)).cacheKey() == first.cacheKey()
