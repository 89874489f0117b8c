"""The window's look at run time: the theme the person chose (or the system's), applied live.

One place decides when the palette changes — at start, when Preferences.theme
changes, and when the desktop switches light/dark while "system" is chosen —
and tells the painted views (timeline, session tree) to drop what they cached
for the old colours.
"""

from __future__ import annotations

from PySide6.QtCore import QObject
from PySide6.QtGui import QGuiApplication

from foya_desktop.store.preferences import Preferences
from foya_desktop.ui import theme
from foya_desktop.ui.icons import icon
from foya_desktop.ui.window_parts import WindowParts


class Look(QObject):
    """Applies and re-applies the theme for one window."""

    def __init__(self, window: WindowParts, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._window = window
        self._theme = window.prefs.current.theme
        self.dark = theme.apply_theme(self._theme)
        window.tree_view.setPalette(theme.sidebar_palette(self.dark))
        settings = window.pane.settings_button  # a quiet header button, like the fork icon next to it
        settings.setObjectName("headerButton")
        settings.setIcon(icon("preferences"))
        settings.style().unpolish(settings)  # a new object name after the first polish: polish again
        settings.style().polish(settings)
        window.prefs.changed.connect(self._on_preferences)
        hints = QGuiApplication.styleHints()
        if hints is not None:
            hints.colorSchemeChanged.connect(self._on_system_scheme)

    def _on_preferences(self, prefs: Preferences) -> None:
        if prefs.theme != self._theme:
            self._theme = prefs.theme
            self.reapply()

    def _on_system_scheme(self, *_args: object) -> None:
        if self._theme == "system":
            self.reapply()

    def reapply(self) -> None:
        """Apply the current choice again and repaint what paints itself."""
        self.dark = theme.apply_theme(self._theme)
        pane = self._window.pane
        pane.renderer.refresh_fonts()
        pane.timeline_view.timeline_delegate.clear_sizes()
        pane.timeline_view.doItemsLayout()
        pane.timeline_view.viewport().update()
        self._window.tree_view.setPalette(theme.sidebar_palette(self.dark))
        self._window.tree_view.viewport().update()
