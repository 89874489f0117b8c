"""The window's one holder of the person's preferences: current value, change signal, saving.

``store/preferences.py`` owns the file; this object owns the *current* value
for the window's parts (theme, send key, window state, the tray's
notifications and told-about-tray, defaults for new sessions), so nobody
reads the file twice or writes back a stale copy over another part's change.
It has the file's ``load()``/``save()`` shape (:class:`PreferencesStore`), so
parts written against the file take it unchanged. Without a file (tests on
the fake kernel) changes live in memory only.
"""

from __future__ import annotations

import dataclasses
import logging
from typing import Any

from PySide6.QtCore import QObject, Signal

from foya_desktop.store.preferences import Preferences, PreferencesFile

log = logging.getLogger(__name__)


class PreferencesState(QObject):
    """Current preferences; ``update()`` saves and announces.

    Signals:
        changed(object): the new ``Preferences`` after an update.
    """

    changed = Signal(object)

    def __init__(self, file: PreferencesFile | None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.file = file
        self.current: Preferences = file.load() if file is not None else Preferences()
        self.problem = file.problem if file is not None else ""
        """A sentence about a damaged preferences file, shown once in the status bar."""

    def update(self, **changes: Any) -> Preferences:
        """Replace some fields, save (a failed save is reported, the value still applies), announce."""
        return self.replace(dataclasses.replace(self.current, **changes))

    def load(self) -> Preferences:
        """The current value (the ``PreferencesStore`` reading: no file access, never stale)."""
        return self.current

    def save(self, prefs: Preferences) -> None:
        """Make ``prefs`` current (the ``PreferencesStore`` writing; same as :meth:`replace`)."""
        self.replace(prefs)

    def replace(self, new: Preferences) -> Preferences:
        """Make ``new`` current (what the Preferences dialog returns); saved and announced if it differs."""
        if new == self.current:
            return new
        self.current = new
        self._write()
        self.changed.emit(new)
        return new

    def _write(self) -> None:
        """Write the current value; a full or read-only disk becomes :attr:`problem`, not an error."""
        if self.file is None:
            return
        try:
            self.file.save(self.current)
        except OSError as error:
            self.problem = self.tr("Preferences could not be saved ({reason}).").format(
                reason=error.strerror or str(error))
            log.warning("saving preferences failed: %s", error)
