"""Render the application icon's PNG sizes from its one SVG source.

Run after changing ``foya_desktop/resources/icons/foya.svg``::

    QT_QPA_PLATFORM=offscreen .venv/bin/python packaging/render_icons.py

The PNGs are checked in because ``foya install-desktop`` must not need Qt
(only the window imports it) and a frozen bundle must not depend on an SVG
image plugin. ``tests/cli/test_install_desktop.py`` checks every size exists
and is square at its nominal size.
"""

from __future__ import annotations

import sys
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication, QImage, QPainter
from PySide6.QtSvg import QSvgRenderer

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from foya_desktop import DESKTOP_ID  # noqa: E402
from foya_desktop.resources import ICON_SIZES, hicolor_dir, icon_svg  # noqa: E402


def main() -> int:
    """Write one PNG per hicolor size next to the SVG; return 0."""
    _app = QGuiApplication(sys.argv)
    renderer = QSvgRenderer(str(icon_svg()))
    if not renderer.isValid():
        print(f"cannot read {icon_svg()}", file=sys.stderr)
        return 1
    for size in ICON_SIZES:
        image = QImage(size, size, QImage.Format.Format_ARGB32)
        image.fill(Qt.GlobalColor.transparent)
        painter = QPainter(image)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        renderer.render(painter)
        painter.end()
        target = hicolor_dir() / f"{size}x{size}" / "apps" / f"{DESKTOP_ID}.png"
        target.parent.mkdir(parents=True, exist_ok=True)
        if not image.save(str(target)):  # the format follows the .png suffix
            print(f"cannot write {target}", file=sys.stderr)
            return 1
        print(target.relative_to(ROOT))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
