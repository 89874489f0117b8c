"""Colours, fonts and glyphs shared by every painted view.

Painted views (timeline, session tree) do not get style sheets, so the few
visual decisions live here instead of being scattered across delegates.
Colours derive from the application palette so a dark desktop theme works.
"""

from __future__ import annotations

import hashlib
from functools import cache

from PySide6.QtGui import QColor, QFont, QFontDatabase, QGuiApplication, QPalette

# Distinct, readable hues for VP names; a VP keeps its colour across sessions.
_VP_HUES = (212, 28, 140, 280, 350, 180, 45, 250, 100, 320)

USER_KEY = "__user__"
"""Speaker key of the person's own messages."""

_EMOJI_FAMILIES = ("Noto Color Emoji", "Apple Color Emoji", "Segoe UI Emoji", "Twemoji")

# Tool icons: emoji where the desktop has an emoji font, BMP symbols otherwise.
_TOOL_ICONS = {
    "read": ("📄", "≡"), "write": ("✏️", "✎"), "edit": ("✏️", "✎"), "list": ("📁", "▤"),
    "shell": ("💻", "⌨"), "command": ("💻", "⌨"), "bash": ("💻", "⌨"), "search": ("🔍", "⌕"),
    "grep": ("🔍", "⌕"), "glob": ("🔍", "⌕"), "web": ("🌐", "◎"), "fetch": ("🌐", "◎"),
    "ask": ("❓", "?"), "route": ("↪", "↪"), "agent": ("🤖", "◆"), "image": ("🖼", "▣"),
    "memory": ("🧠", "◇"),
}


def is_dark() -> bool:
    """Whether the current palette is a dark theme (window darker than text)."""
    pal = QGuiApplication.palette()
    return pal.color(QPalette.ColorRole.Window).lightness() < pal.color(
        QPalette.ColorRole.WindowText).lightness()


@cache
def _hue_for(speaker: str) -> int:
    digest = hashlib.sha1(speaker.encode(), usedforsecurity=False).digest()
    return _VP_HUES[digest[0] % len(_VP_HUES)]


def speaker_color(speaker: str, slot: int | None = None) -> QColor:
    """The colour of a VP's name, readable on light and dark.

    ``slot`` is the VP's place in the session roster (distinct colours within
    a session); without it the colour is derived from the id.
    """
    if slot is not None:
        hue = _VP_HUES[slot % len(_VP_HUES)]
    else:
        hue = 212 if speaker == "omni" else _hue_for(speaker)
    return QColor.fromHsl(hue, 150, 170 if is_dark() else 95)


def text_color() -> QColor:
    """Body text colour."""
    return QGuiApplication.palette().color(QPalette.ColorRole.Text)


def dim_color() -> QColor:
    """Secondary text: timestamps, reasoning, result summaries."""
    return QGuiApplication.palette().color(QPalette.ColorRole.PlaceholderText)


def error_color() -> QColor:
    """Failed tools and error messages."""
    return QColor("#ff6b6b") if is_dark() else QColor("#c62828")


def warning_color() -> QColor:
    """Interrupted replies: visibly not complete, but not an error."""
    return QColor("#ffb74d") if is_dark() else QColor("#b26a00")


def success_color() -> QColor:
    """Completed tool results."""
    return QColor("#81c784") if is_dark() else QColor("#2e7d32")


def user_bubble_color() -> QColor:
    """Background of the person's messages: a tint of the highlight colour."""
    pal = QGuiApplication.palette()
    base = pal.color(QPalette.ColorRole.Base)
    tint = pal.color(QPalette.ColorRole.Highlight)
    return _mix(base, tint, 0.12 if not is_dark() else 0.25)


def code_background() -> QColor:
    """Background of fenced code blocks."""
    pal = QGuiApplication.palette()
    return _mix(pal.color(QPalette.ColorRole.Base), pal.color(QPalette.ColorRole.Text), 0.06)


def _mix(a: QColor, b: QColor, t: float) -> QColor:
    return QColor(round(a.red() * (1 - t) + b.red() * t), round(a.green() * (1 - t) + b.green() * t),
                  round(a.blue() * (1 - t) + b.blue() * t))


def body_font() -> QFont:
    """The font of message text; a touch larger than the UI font for reading."""
    font = QFont(QGuiApplication.font())
    size = font.pointSizeF()
    font.setPointSizeF(max(10.0, size + 1.0) if size > 0 else 10.5)
    return font


def small_font() -> QFont:
    """Captions: speaker names, times, tool rows."""
    font = QFont(QGuiApplication.font())
    size = font.pointSizeF()
    font.setPointSizeF(max(9.0, size) if size > 0 else 9.0)
    return font


def mono_font() -> QFont:
    """Code blocks and tool arguments."""
    font = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
    font.setPointSizeF(body_font().pointSizeF() - 0.5)
    return font


@cache
def has_emoji_font() -> bool:
    """Whether emoji render as pictures here (not as empty boxes)."""
    families = set(QFontDatabase.families())
    return any(f in families for f in _EMOJI_FAMILIES)


def tool_icon(tool_name: str) -> str:
    """A one-glyph icon for a tool, chosen by words in its name."""
    lowered = tool_name.lower()
    for word, (emoji, symbol) in _TOOL_ICONS.items():
        if word in lowered:
            return emoji if has_emoji_font() else symbol
    return "⚙"
