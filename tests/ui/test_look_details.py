"""Issue 12 "Look and feel" lines no screenshot can prove by itself: CJK glyphs, speaker colours,
the type scale.

* "Chinese text renders with a CJK font in screenshots": a font for Simplified
  Chinese is found and two different characters draw two different, non-empty
  pictures (a missing font draws the same empty box for both).
* "subtle speaker colours": each VP of a roster gets its own hue, readable on
  the theme's background (contrast ≥ 3:1, both themes) and not loud (moderate
  saturation), and the person's bubble is only a tint of the background.
* "a clear type scale": caption < body < reading < title < display, and the
  window uses it (the session title is a title, message text is reading size).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QFont, QFontDatabase, QImage, QPainter
from PySide6.QtWidgets import QApplication

from foya_desktop.ui import theme
from foya_desktop.ui.main_window import MainWindow


@pytest.fixture(autouse=True)
def _light_afterwards() -> Iterator[None]:
    yield
    theme.apply_theme("light")


def _glyph(char: str, font: QFont) -> QImage:
    image = QImage(40, 40, QImage.Format.Format_RGB32)
    image.fill(QColor("white"))
    painter = QPainter(image)
    painter.setFont(font)
    painter.setPen(QColor("black"))
    painter.drawText(image.rect(), Qt.AlignmentFlag.AlignCenter, char)
    painter.end()
    return image


def _ink(image: QImage) -> int:
    return sum(1 for x in range(image.width()) for y in range(image.height()) if image.pixelColor(x, y).lightness() < 128)


def test_chinese_renders_with_a_cjk_font(qapp: QApplication) -> None:
    """The UI font (with Qt's fallback) draws real Chinese glyphs, not boxes (fonts-wqy-microhei on Linux)."""
    families = QFontDatabase.families(QFontDatabase.WritingSystem.SimplifiedChinese)
    assert families, "no font for Simplified Chinese installed (Debian/Ubuntu: apt-get install fonts-wqy-microhei)"
    font = theme.body_font()
    font.setPixelSize(24)
    welcome, use = _glyph("欢", font), _glyph("迎", font)
    assert _ink(welcome) > 20 and _ink(use) > 20
    assert welcome != use, "both characters drew the same picture: a missing-glyph box"


def _luminance(c: QColor) -> float:
    def channel(v: float) -> float:
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4
    return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) + 0.0722 * channel(c.blueF())


def _contrast(a: QColor, b: QColor) -> float:
    hi, lo = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


@pytest.mark.parametrize("choice", ["light", "dark"])
def test_speaker_colours_are_distinct_readable_and_subtle(qapp: QApplication, choice: str) -> None:
    theme.apply_theme(choice)  # type: ignore[arg-type]
    base = QColor(theme.colors(choice == "dark")["base"])
    roster = [theme.speaker_color(f"vp{i}", slot=i) for i in range(6)]
    assert len({c.name() for c in roster}) == 6, "two VPs of one session share a colour"
    for color in [*roster, theme.speaker_color("omni")]:
        assert _contrast(color, base) >= 3.0, f"{color.name()} is hard to read on {base.name()}"
        assert color.hslSaturation() <= 170, f"{color.name()} is loud, not subtle"
    bubble = theme.user_bubble_color()
    assert 1.0 < _contrast(bubble, base) < 1.6, "the person's bubble should be a tint, not a block of colour"


async def test_type_scale_is_ordered_and_the_window_uses_it(real_window: MainWindow) -> None:
    sizes = [theme.scaled_font(step).pointSizeF() for step in ("caption", "body", "reading", "title", "display")]
    assert sizes == sorted(sizes) and len(set(sizes)) == len(sizes)
    assert theme.SPACE == 8 and theme.HIT_SIZE % 4 == 0 and theme.SMALL_HIT % 4 == 0  # one spacing grid
    assert theme.body_font().pointSizeF() > QApplication.font().pointSizeF()  # messages read a step larger
    title, subtitle = real_window.pane.title, real_window.pane.subtitle
    assert title.font().pointSizeF() >= sizes[3] > subtitle.font().pointSizeF(), "the header's title is no title"
