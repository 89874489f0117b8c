"""Files shipped inside the package (icons, desktop metadata), found without Qt.

Paths come from the package location, so an editable install, a wheel and a
frozen bundle all find them the same way.
"""

from __future__ import annotations

from pathlib import Path

ICON_SIZES = (16, 22, 24, 32, 48, 64, 128, 256, 512)
"""The hicolor theme sizes Foya ships as PNG (plus the scalable SVG)."""

_HERE = Path(__file__).resolve().parent


def icon_svg() -> Path:
    """The icon's one source."""
    return _HERE / "icons" / "foya.svg"


def hicolor_dir() -> Path:
    """``icons/hicolor`` laid out as the theme is (``NxN/apps/<id>.png``)."""
    return _HERE / "icons" / "hicolor"


def icon_png(size: int) -> Path:
    """The PNG rendering at ``size`` (one of :data:`ICON_SIZES`)."""
    from foya_desktop import DESKTOP_ID

    return hicolor_dir() / f"{size}x{size}" / "apps" / f"{DESKTOP_ID}.png"


def metainfo_template() -> Path:
    """The AppStream metainfo shipped with the package."""
    return _HERE / "metainfo.xml"
