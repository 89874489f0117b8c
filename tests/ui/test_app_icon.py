"""The window and tray show the same icon the menu entry installs: every packaged size loads
(a missing or unreadable PNG would silently give an empty icon)."""

from __future__ import annotations

from PySide6.QtCore import QSize
from PySide6.QtWidgets import QApplication

from foya_desktop.resources import ICON_SIZES
from foya_desktop.ui.icons import app_icon, app_pixmap


def test_every_packaged_size_loads(qapp: QApplication) -> None:
    icon = app_icon()
    assert not icon.isNull()
    assert set(icon.availableSizes()) == {QSize(size, size) for size in ICON_SIZES}
    pixmap = app_pixmap(72)
    assert not pixmap.isNull() and pixmap.width() <= 72
