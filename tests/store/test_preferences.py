"""The preferences file: defaults, round trip, damage kept and reported, never a traceback."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

from foya_desktop.store.home import Home
from foya_desktop.store.preferences import Preferences, PreferencesFile


def test_missing_file_gives_defaults(tmp_path: Path) -> None:
    prefs = PreferencesFile(Home(tmp_path))
    assert prefs.load() == Preferences()
    assert prefs.problem == ""


def test_round_trip_keeps_every_field(tmp_path: Path) -> None:
    store = PreferencesFile(Home(tmp_path))
    changed = dataclasses.replace(
        Preferences(), language="zh_CN", theme="dark", send_key="ctrl_enter",
        notify_turn_finished=False, splitter_sizes=(200, 800), last_session_id="s-1",
    )
    store.save(changed)
    assert PreferencesFile(Home(tmp_path)).load() == changed


def test_damaged_file_is_kept_and_reported(tmp_path: Path) -> None:
    store = PreferencesFile(Home(tmp_path))
    store.path.write_text("{not json", encoding="utf-8")
    assert store.load() == Preferences()
    assert "damaged" in store.problem
    assert (tmp_path / "preferences.json.bad").read_text(encoding="utf-8") == "{not json"


def test_wrong_typed_fields_reset_alone(tmp_path: Path) -> None:
    store = PreferencesFile(Home(tmp_path))
    store.path.write_text(json.dumps({"theme": "purple", "language": "zh_CN", "splitter_sizes": ["x"]}), encoding="utf-8")
    loaded = store.load()
    assert loaded.language == "zh_CN"
    assert loaded.theme == "system"
    assert loaded.splitter_sizes == ()
    assert "theme" in store.problem and "splitter_sizes" in store.problem
