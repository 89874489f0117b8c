"""The window's background consistency check (``store/integrity.py``) on the real ``run_app``: a
database whose damage only the full check sees opens (the cheap check at start passes), the
check finds it, the window closes and the storage-fault dialog takes its place; from the
moment it failed nothing is written to the file — not the lease bookkeeping at close, not
SQLite's checkpoint of the log when the last connection closes."""

from __future__ import annotations

import asyncio
import os
import sqlite3
from pathlib import Path

import pytest

from foya_desktop.app import run_app
from tests.cli.test_integrity_checks import damage_unseen
from tests.ui.helpers import wait_until
from tests.ui.test_storage_fault_dialog import EXIT_CORRUPT, _dialog, _home_with, _window


@pytest.fixture(autouse=True)
def _isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FOYA_HOME", str(tmp_path / "foya-home"))
    monkeypatch.setenv("PYTHON_KEYRING_BACKEND", "keyring.backends.fail.Keyring")


def _files(root: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in root.glob("foya.sqlite3*") if p.name != "foya.sqlite3-shm"}


async def test_damage_found_after_start_closes_the_window_and_nothing_is_written_again(
        tmp_path: Path) -> None:
    home = await _home_with(tmp_path / "foya-home", "opened before the check")
    damage_unseen(home.root)
    app = asyncio.ensure_future(run_app(home.root, use_tray=False, check_after_s=2.0))
    await wait_until(lambda: _window() is not None, timeout=30, what="the window (the cheap check passes)")
    await wait_until(lambda: _dialog() is not None, timeout=60, what="the storage-fault dialog")
    dialog = _dialog()
    assert dialog is not None and _window() is None
    assert "fails SQLite's consistency check" in dialog.detail.text()
    at_failure = _files(home.root)
    dialog.quit_button.click()
    assert await asyncio.wait_for(app, 30) == EXIT_CORRUPT
    assert _files(home.root) == at_failure
    con = sqlite3.connect(f"file:{home.database}?mode=ro", uri=True)
    try:  # the window's close did not even unregister its lease (a write): the row is left as by a crash
        assert con.execute("SELECT count(*) FROM process_lease WHERE pid=?", (os.getpid(),)).fetchone() == (1,)
    finally:
        con.close()
