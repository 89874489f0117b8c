"""Colours, fonts and glyphs shared by every painted view.

Painted views (timeline, session tree) do not get style sheets, so the few
visual decisions live here instead of being scattered across delegates.
Colours derive from the application palette so a dark desktop theme works.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Literal

from PySide6.QtCore import QRect
from PySide6.QtGui import QColor, QFont, QFontDatabase, QGuiApplication, QPainter, QPalette
from PySide6.QtWidgets import QApplication, QWidget

from foya_desktop.ui import glyphs

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
    import hashlib  # loads OpenSSL (~15 ms): not on the start frame's path

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


# ---- the application theme: palettes, type scale, spacing, one style sheet ------------------
#
# Why our own palettes and not the platform's: Fusion on Linux ignores the desktop's dark
# preference on many setups, and a manual switch must work everywhere. The system preference
# is still the default (``QStyleHints.colorScheme()``, Qt 6.5+), followed live.

ThemeChoice = Literal["system", "light", "dark"]

SPACE = 8
"""The spacing unit: margins and gaps are multiples of it (4 for tight places)."""

READING_WIDTH = 780
"""Widest a message column gets: long lines are hard to read (about 90 characters)."""

HIT_SIZE = 32
SMALL_HIT = 28
"""The smallest click target: dialog buttons, combo boxes, fields, the queue's buttons."""
"""Side of the composer's round buttons (Send, Stop, attach): comfortable to hit."""

TYPE_SCALE = {"caption": -1.0, "body": 0.0, "reading": 1.0, "title": 3.0, "display": 9.0}
"""Point-size offsets from the UI font: one scale for every label the app sizes itself."""

_LIGHT = {
    "window": "#f6f6f7", "base": "#ffffff", "alt": "#f1f1f3", "text": "#1c1d21", "dim": "#6b6f76",
    "button": "#ffffff", "mid": "#d9dadf", "dark": "#b9bbc2", "highlight": "#2f6fde",
    "highlighted_text": "#ffffff", "link": "#2f6fde", "tooltip": "#1c1d21", "tooltip_text": "#f6f6f7",
    "sidebar": "#eeeef1", "hover": "#e5e6ea", "sidebar_selected": "#dcdfe6",
}
_DARK = {
    "window": "#1d1e21", "base": "#242529", "alt": "#2a2b30", "text": "#e7e8ea", "dim": "#9a9da5",
    "button": "#2c2d32", "mid": "#3a3b41", "dark": "#4a4c53", "highlight": "#4c8bf5",
    "highlighted_text": "#ffffff", "link": "#7aa7ff", "tooltip": "#e7e8ea", "tooltip_text": "#1d1e21",
    "sidebar": "#19191c", "hover": "#303137", "sidebar_selected": "#2f3138",
}


def scaled_font(step: str, *, bold: bool = False) -> QFont:
    """The UI font at a step of :data:`TYPE_SCALE` ("caption", "body", "reading", "title", "display")."""
    font = QFont(QGuiApplication.font())
    size = font.pointSizeF() if font.pointSizeF() > 0 else 10.0
    font.setPointSizeF(max(8.0, size + TYPE_SCALE[step]))
    font.setBold(bold)
    return font


def system_prefers_dark() -> bool:
    """The desktop's light/dark preference (unknown counts as light)."""
    from PySide6.QtCore import Qt  # see platform_palette_is_dark

    hints = QGuiApplication.styleHints()
    return hints is not None and hints.colorScheme() == Qt.ColorScheme.Dark


def platform_palette_is_dark() -> bool:
    """Whether the platform theme's palette is dark — the start frame's guess at the desktop's
    preference (``ui/start_window.py``): asking for the colour scheme itself makes PySide build its
    whole ``Qt`` namespace (every enum of it, ~70 ms), a cost the first paint must not carry. The
    platform themes derive their palette from the same scheme; the real window asks exactly."""
    return is_dark()


def wants_dark(choice: ThemeChoice, *, guess: bool = False) -> bool:
    """Whether ``choice`` means the dark theme right now (``guess``: see platform_palette_is_dark)."""
    if choice != "system":
        return choice == "dark"
    return platform_palette_is_dark() if guess else system_prefers_dark()


def colors(dark: bool) -> dict[str, str]:
    """The named colours of the light or dark theme (hex strings)."""
    return dict(_DARK if dark else _LIGHT)


def make_palette(dark: bool) -> QPalette:
    """A complete palette for the theme, including disabled text."""
    c = colors(dark)
    pal = QPalette()
    role = QPalette.ColorRole
    for r, key in ((role.Window, "window"), (role.WindowText, "text"), (role.Base, "base"),
                   (role.AlternateBase, "alt"), (role.Text, "text"), (role.Button, "button"),
                   (role.ButtonText, "text"), (role.Mid, "mid"), (role.Dark, "dark"),
                   (role.Midlight, "alt"), (role.Light, "base"), (role.Shadow, "dark"),
                   (role.Highlight, "highlight"), (role.HighlightedText, "highlighted_text"),
                   (role.Link, "link"), (role.LinkVisited, "link"), (role.ToolTipBase, "tooltip"),
                   (role.ToolTipText, "tooltip_text"), (role.PlaceholderText, "dim"),
                   (role.BrightText, "highlighted_text")):
        pal.setColor(r, QColor(c[key]))
    disabled = QPalette.ColorGroup.Disabled
    for r in (role.WindowText, role.Text, role.ButtonText):
        pal.setColor(disabled, r, QColor(c["dim"]))
    pal.setColor(disabled, role.Highlight, QColor(c["mid"]))
    return pal


def sidebar_palette(dark: bool) -> QPalette:
    """The session tree's palette: a quiet selection (the title's text colour stays readable on it)."""
    c = colors(dark)
    pal = make_palette(dark)
    for group in (QPalette.ColorGroup.Active, QPalette.ColorGroup.Inactive):
        pal.setColor(group, QPalette.ColorRole.Highlight, QColor(c["sidebar_selected"]))
        pal.setColor(group, QPalette.ColorRole.HighlightedText, QColor(c["text"]))
    pal.setColor(QPalette.ColorRole.Base, QColor(c["sidebar"]))
    return pal


@cache
def _glyph_folder() -> Path:
    """A private folder for glyph files: style sheets take images by file name only."""
    import atexit  # off the start frame's path: only a window with combo boxes needs glyph files
    import shutil
    import tempfile

    folder = Path(tempfile.mkdtemp(prefix="foya-glyphs-"))
    atexit.register(shutil.rmtree, folder, True)
    return folder


@cache
def glyph_file(name: str, color: str) -> str:
    """Glyph ``name`` of ``ui/glyphs.py`` in ``color`` as an SVG file, for a style sheet's ``url()``."""
    path = _glyph_folder() / f"{name}-{color.lstrip('#')}.svg"
    path.write_bytes(glyphs.svg(name, color))
    return path.as_posix()


def _combo_rules(c: dict[str, str]) -> str:
    """Combo boxes in the theme: a rounded field like the line edits, the set's chevron, a quiet popup."""
    arrow, arrow_off = glyph_file("down", c["dim"]), glyph_file("down", c["mid"])
    return f"""
QComboBox {{ min-height: {SMALL_HIT - 6}px; border: 1px solid {c['mid']}; border-radius: 6px;
    padding: 2px 2px 2px 6px; background: {c['button']}; color: {c['text']};
    selection-background-color: {c['highlight']}; }}
QComboBox:hover {{ border: 1px solid {c['dark']}; }}
QComboBox:focus, QComboBox:on {{ border: 1px solid {c['highlight']}; }}
QComboBox:disabled {{ color: {c['dim']}; background: {c['alt']}; }}
QComboBox:editable {{ background: {c['base']}; }}
QComboBox::drop-down {{ subcontrol-origin: padding; subcontrol-position: center right; width: 16px;
    border: none; background: transparent; }}
QComboBox::down-arrow {{ image: url("{arrow}"); width: 12px; height: 12px; }}
QComboBox::down-arrow:disabled {{ image: url("{arrow_off}"); }}
QComboBox QAbstractItemView {{ border: 1px solid {c['mid']}; border-radius: 6px; padding: 4px;
    background: {c['base']}; color: {c['text']}; outline: none;
    selection-background-color: {c['highlight']}; selection-color: {c['highlighted_text']}; }}
"""


def _selection_rules(c: dict[str, str]) -> str:
    """One selection for every list, tree and picker popup: the highlight with its own text colour.

    Why a rule and not just the palette: once any style sheet rule styles ``::item`` (the dialogs'
    padded rows, the Ctrl+K palette), Qt draws those rows itself and paints the selected one with no
    background while the text turns to the highlighted-text colour: white on white in the light
    theme, an invisible selection in the dark one. The session tree keeps its quieter selection.
    """
    return f"""
QAbstractItemView::item:selected, QComboBox::item:selected {{ background: {c['highlight']};
    color: {c['highlighted_text']}; }}
QTreeView#sessionTree::item:selected {{ background: {c['sidebar_selected']}; color: {c['text']}; }}
"""


def fill_background(widget: QWidget, rect: QRect, key: str) -> None:
    """Paint ``rect`` of an opaque (``WA_OpaquePaintEvent``) viewport in the theme's ``key`` colour:
    nothing else clears it, and an opaque viewport's repaints do not repaint the window behind it."""
    painter = QPainter(widget)
    painter.fillRect(rect, QColor(colors(is_dark())[key]))
    painter.end()


def style_sheet(dark: bool) -> str:
    """The few app-wide rules a palette cannot express: radii, paddings, the sidebar, the toolbar."""
    c = colors(dark)
    return f"""
QToolBar#mainToolbar {{ background: {c['window']}; border: none;
    border-bottom: 1px solid {c['mid']}; padding: 2px 6px; spacing: 2px; }}
QToolBar#mainToolbar QToolButton {{ border: none; border-radius: 6px; padding: 5px 8px; }}
QToolBar#mainToolbar QToolButton:hover {{ background: {c['hover']}; }}
QToolBar#mainToolbar QToolButton:pressed {{ background: {c['mid']}; }}
QTreeView#sessionTree {{ background: {c['sidebar']}; border: none;
    selection-background-color: {c['sidebar_selected']}; selection-color: {c['text']}; }}
QSplitter::handle {{ background: {c['mid']}; }}
QSplitter::handle:horizontal {{ width: 1px; }}
QStatusBar {{ color: {c['dim']}; }}
QToolButton#composerButton {{ border: none; border-radius: {HIT_SIZE // 2}px; padding: 0px; }}
QToolButton#composerButton:hover {{ background: {c['hover']}; }}
QToolButton#composerButton:disabled {{ background: transparent; }}
QPushButton#sendButton {{ border: none; border-radius: {HIT_SIZE // 2}px; padding: 0px 14px 0px 10px;
    background: {c['highlight']}; color: {c['highlighted_text']}; font-weight: 600; }}
QPushButton#sendButton:hover {{ background: {QColor(c['highlight']).lighter(112).name()}; }}
QPushButton#sendButton:pressed {{ background: {QColor(c['highlight']).darker(112).name()}; }}
QPushButton#sendButton[queueing="true"] {{ border: 1px solid {c['mid']}; background: transparent;
    color: {c['text']}; font-weight: normal; }}
QPushButton#sendButton[queueing="true"]:hover {{ background: {c['hover']}; }}
QToolButton#stopButton {{ border: none; border-radius: {HIT_SIZE // 2}px; padding: 0px 20px 0px 10px;
    background: {c['highlight']}; color: {c['highlighted_text']}; font-weight: 600; }}
QToolButton#stopButton:hover {{ background: {QColor(c['highlight']).lighter(112).name()}; }}
QToolButton#stopButton::menu-button {{ border: none; width: 20px; }}
QToolButton#stopButton::menu-arrow {{ image: url("{glyph_file('down', c['highlighted_text'])}"); width: 10px;
    height: 10px; }}
QComboBox#composerPicker {{ border: 1px solid transparent; background: transparent; color: {c['dim']};
    padding: 2px 0px 2px 6px; }}
QComboBox#composerPicker:hover {{ background: {c['hover']}; color: {c['text']}; }}
QComboBox#composerPicker:focus, QComboBox#composerPicker:on {{ border: 1px solid {c['highlight']}; }}
QComboBox#composerPicker:editable {{ background: transparent; }}
TimelineView {{ border: none; background: {c['base']}; }}
QScrollBar:vertical {{ width: 10px; background: transparent; margin: 0px; }}
QScrollBar:horizontal {{ height: 10px; background: transparent; margin: 0px; }}
QScrollBar::handle:vertical {{ background: {c['dark']}; border-radius: 3px; min-height: 28px; margin: 2px; }}
QScrollBar::handle:horizontal {{ background: {c['dark']}; border-radius: 3px; min-width: 28px; margin: 2px; }}
QScrollBar::handle:hover {{ background: {c['dim']}; }}
QScrollBar::add-line, QScrollBar::sub-line {{ width: 0px; height: 0px; border: none; background: none; }}
QScrollBar::add-page, QScrollBar::sub-page {{ background: transparent; }}
QPushButton#headerButton {{ border: 1px solid transparent; border-radius: 6px; padding: 4px 8px; }}
QPushButton#headerButton:hover {{ background: {c['hover']}; }}
QLineEdit#quickSwitcherInput {{ border: none; padding: 10px 12px; font-size: 13pt;
    background: {c['base']}; }}
QDialog QPushButton {{ min-height: {SMALL_HIT - 8}px; padding: 3px 14px; border-radius: 6px;
    border: 1px solid {c['mid']}; background: {c['button']}; color: {c['text']}; }}
QDialog QPushButton:hover {{ background: {c['hover']}; }}
QDialog QPushButton:pressed {{ background: {c['mid']}; }}
QDialog QPushButton:default {{ background: {c['highlight']}; color: {c['highlighted_text']};
    border: 1px solid {c['highlight']}; }}
QDialog QPushButton:default:hover {{ background: {QColor(c['highlight']).lighter(112).name()}; }}
QDialog QPushButton:disabled {{ color: {c['dim']}; background: {c['alt']}; }}
QDialog QLineEdit, QDialog QPlainTextEdit, QDialog QTextEdit, QDialog QSpinBox {{
    border: 1px solid {c['mid']}; border-radius: 6px; padding: 3px 6px; background: {c['base']};
    selection-background-color: {c['highlight']}; }}
QDialog QLineEdit {{ min-height: {SMALL_HIT - 10}px; }}
QDialog QLineEdit:focus, QDialog QPlainTextEdit:focus, QDialog QTextEdit:focus {{
    border: 1px solid {c['highlight']}; }}
QDialog QLineEdit:read-only {{ background: {c['alt']}; }}
QDialog QListWidget, QDialog QListView, QDialog QTreeView, QDialog QTableView {{
    border: 1px solid {c['mid']}; border-radius: 6px; background: {c['base']}; }}
QDialog QListWidget::item, QDialog QListView::item {{ padding: 4px 6px; border-radius: 4px; }}
QDialog QGroupBox {{ border: 1px solid {c['mid']}; border-radius: 8px; margin-top: 14px; padding-top: 6px; }}
QDialog QGroupBox::title {{ subcontrol-origin: margin; left: 10px; padding: 0px 4px; color: {c['dim']}; }}
QToolButton#queueButton {{ border: 1px solid transparent; border-radius: 6px; padding: 2px 6px; }}
QToolButton#queueButton:hover {{ background: {c['hover']}; border: 1px solid {c['mid']}; }}
QToolButton#queueButton:disabled {{ color: {c['dim']}; }}
QFrame#card QPushButton, StatusLine QPushButton {{ min-height: {SMALL_HIT - 8}px; padding: 1px 8px;
    border-radius: 6px; border: 1px solid {c['mid']}; background: {c['button']}; color: {c['text']}; }}
QFrame#card QPushButton:hover, StatusLine QPushButton:hover {{ background: {c['hover']}; }}
QFrame#card QPushButton:pressed, StatusLine QPushButton:pressed {{ background: {c['mid']}; }}
QFrame#card QPushButton:disabled, StatusLine QPushButton:disabled {{ color: {c['dim']};
    background: {c['alt']}; }}
QFrame#card QPushButton#primaryAnswer {{ background: {c['highlight']}; color: {c['highlighted_text']};
    border: 1px solid {c['highlight']}; font-weight: 600; }}
QFrame#card QPushButton#primaryAnswer:hover {{ background: {QColor(c['highlight']).lighter(112).name()}; }}
QFrame#card QPushButton#primaryAnswer:disabled {{ color: {c['dim']}; background: {c['alt']};
    border: 1px solid {c['mid']}; }}
QFrame#card QLineEdit, QFrame#card QPlainTextEdit {{ border: 1px solid {c['mid']}; border-radius: 6px;
    padding: 2px 6px; background: {c['base']}; selection-background-color: {c['highlight']}; }}
QFrame#card QLineEdit:focus {{ border: 1px solid {c['highlight']}; }}
QFrame#card QPlainTextEdit {{ background: {c['alt']}; }}
""" + _combo_rules(c) + _selection_rules(c)


def apply_theme(choice: ThemeChoice, *, guess: bool = False) -> bool:
    """Give the application the theme ``choice`` means now; returns whether it is dark.

    Painted views keep no colours of their own (they ask this module while
    painting), so a repaint after this call is enough for them. ``guess``: the start frame's
    cheap reading of "system" (:func:`platform_palette_is_dark`).
    """
    app = QGuiApplication.instance()
    dark = wants_dark(choice, guess=guess)
    if isinstance(app, QGuiApplication):
        # NOTE: only what changed: setting the same sheet again re-polishes every widget (~70 ms
        # for a built window; the start frame, the window and its Look each apply the theme)
        palette = make_palette(dark)
        if QGuiApplication.palette() != palette:
            QGuiApplication.setPalette(palette)
        sheet = style_sheet(dark)
        if isinstance(app, QApplication) and app.styleSheet() != sheet:  # widgets have style sheets
            app.setStyleSheet(sheet)
    return dark
