"""The person's preferences and the window's remembered state, in one small JSON file.

Why a file in the data folder and not QSettings: ``FOYA_HOME`` must move *all*
of Foya's data (tests and portable installs rely on it), the CLI reads the same
defaults without Qt, and a JSON file can be repaired by hand. Why not the
database: preferences must load before the database opens (language, theme)
and must survive a database the app refuses to open.

One owner: :class:`PreferencesFile` reads and writes; callers get an immutable
:class:`Preferences` value and save a changed copy (``dataclasses.replace``).
A missing file means defaults; a corrupt file or a wrong-typed field means the
default for what could not be read plus a sentence in :attr:`PreferencesFile.problem`
— never a traceback, never a lost file (the bad one is kept as ``.bad``).
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, Literal, Protocol, get_args

from foya_desktop.store.home import Home

Language = Literal["system", "en", "zh_CN"]
Theme = Literal["system", "light", "dark"]
SendKey = Literal["enter", "ctrl_enter"]


@dataclass(frozen=True, slots=True)
class Preferences:
    """Everything the Preferences dialog edits, plus remembered window state.

    Defaults are what a new user gets. Window state fields are opaque strings
    the window writes (base64 of ``saveGeometry()`` and friends).
    """

    language: Language = "system"
    theme: Theme = "system"
    send_key: SendKey = "enter"
    notify_turn_finished: bool = True
    notify_turn_failed: bool = True
    notify_needs_you: bool = True
    default_connection: str = ""
    default_model: str = ""
    default_approval: str = ""
    told_about_tray: bool = False
    window_geometry: str = ""
    window_state: str = ""
    splitter_sizes: tuple[int, ...] = field(default_factory=tuple)
    last_session_id: str = ""
    outline_shown: bool = False
    """The history outline beside the timeline is open (View menu)."""


_LITERALS: dict[str, tuple[object, ...]] = {
    "language": get_args(Language),
    "theme": get_args(Theme),
    "send_key": get_args(SendKey),
}


def _coerce(name: str, default: object, raw: object) -> object:
    """``raw`` if it has the field's type (and allowed value), else raise ValueError."""
    allowed = _LITERALS.get(name)
    if allowed is not None:
        if raw in allowed:
            return raw
        raise ValueError(name)
    if isinstance(default, bool):
        if isinstance(raw, bool):
            return raw
        raise ValueError(name)
    if isinstance(default, str):
        if isinstance(raw, str):
            return raw
        raise ValueError(name)
    if isinstance(default, tuple):
        if isinstance(raw, list) and all(isinstance(v, int) and not isinstance(v, bool) for v in raw):
            return tuple(raw)
        raise ValueError(name)
    raise ValueError(name)  # pragma: no cover - every field type is handled above


class PreferencesFile:
    """Reads and atomically writes ``preferences.json`` in the data folder."""

    def __init__(self, home: Home) -> None:
        self.path = home.root / "preferences.json"
        self.problem = ""

    def load(self) -> Preferences:
        """The stored preferences; defaults for anything missing or unreadable."""
        self.problem = ""
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return Preferences()
        except OSError as error:
            self.problem = f"Foya could not read its preferences ({error.strerror}); using defaults."
            return Preferences()
        try:
            data = json.loads(text)
        except ValueError:
            data = None
        if not isinstance(data, dict):
            self._keep_bad_copy(text)
            self.problem = (
                "Foya's preferences file was damaged; it was kept as preferences.json.bad "
                "and defaults are used."
            )
            return Preferences()
        values: dict[str, Any] = {}
        ignored: list[str] = []
        defaults = Preferences()
        for f in fields(Preferences):
            if f.name not in data:
                continue
            try:
                values[f.name] = _coerce(f.name, getattr(defaults, f.name), data[f.name])
            except ValueError:
                ignored.append(f.name)
        if ignored:
            self.problem = "Some preferences could not be read and were reset: " + ", ".join(ignored) + "."
        return dataclasses.replace(defaults, **values)

    def save(self, prefs: Preferences) -> None:
        """Write ``prefs`` atomically (temp file + rename); raises OSError on a full or read-only disk."""
        data = {f.name: getattr(prefs, f.name) for f in fields(Preferences)}
        data["splitter_sizes"] = list(prefs.splitter_sizes)
        self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        tmp = self.path.with_name(self.path.name + ".tmp")
        tmp.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        os.replace(tmp, self.path)

    def _keep_bad_copy(self, text: str) -> None:
        with contextlib.suppress(OSError):
            self.path.with_name(self.path.name + ".bad").write_text(text, encoding="utf-8")


class PreferencesStore(Protocol):
    """What reads and writes preferences: the file itself, or the window's holder (``ui/prefs.py``)."""

    def load(self) -> Preferences:
        """The current preferences."""
        ...

    def save(self, prefs: Preferences) -> None:
        """Store ``prefs``."""
        ...


def preferences_path(home: Home) -> Path:
    """Where the preferences live (for "open folder" and the README)."""
    return PreferencesFile(home).path
