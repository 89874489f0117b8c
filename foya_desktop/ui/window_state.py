"""The window's remembered state: geometry, toolbar/dock state, splitter sizes, last session.

Stored in the person's preferences (``Preferences.window_geometry`` and
friends, base64 of Qt's own ``save*()`` blobs) so a data folder carries its
window with it. Saved when the window closes or the app quits, and the last
open session whenever another one is shown; restored when the window is built.
A blob Qt cannot read (another Qt version, a hand edit) is ignored.
"""

from __future__ import annotations

import base64
import binascii

from PySide6.QtCore import QByteArray, QObject
from PySide6.QtWidgets import QMainWindow, QSplitter

from foya_desktop.ui.prefs import PreferencesState


class WindowMemory(QObject):
    """Restores and saves one window's state through :class:`PreferencesState`."""

    def __init__(self, window: QMainWindow, splitter: QSplitter, prefs: PreferencesState) -> None:
        super().__init__(window)
        self._window, self._splitter, self._prefs = window, splitter, prefs

    def restore(self) -> bool:
        """Apply the stored state; whether a stored geometry was applied."""
        p = self._prefs.current
        restored = False
        if (blob := _decode(p.window_geometry)) is not None:
            restored = self._window.restoreGeometry(blob)
        if (blob := _decode(p.window_state)) is not None:
            self._window.restoreState(blob)
        sizes = list(p.splitter_sizes)
        if len(sizes) == self._splitter.count() and all(s >= 0 for s in sizes) and any(sizes):
            self._splitter.setSizes(sizes)
        return restored

    def save(self) -> None:
        """Store geometry, state and splitter sizes now."""
        self._prefs.update(
            window_geometry=_encode(self._window.saveGeometry()),
            window_state=_encode(self._window.saveState()),
            splitter_sizes=tuple(self._splitter.sizes()))

    def remember_session(self, session_id: str) -> None:
        """The session on screen, opened again at the next start."""
        self._prefs.update(last_session_id=session_id)

    def last_session(self) -> str:
        """The session that was on screen last time ("" if none)."""
        return self._prefs.current.last_session_id


def _encode(blob: QByteArray) -> str:
    return base64.b64encode(bytes(blob.data())).decode("ascii")


def _decode(text: str) -> QByteArray | None:
    if not text:
        return None
    try:
        return QByteArray(base64.b64decode(text.encode("ascii"), validate=True))
    except (binascii.Error, ValueError):
        return None
