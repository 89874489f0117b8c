"""The window's start-up on a data folder it cannot open (issue 14: "a dialog that says what is
wrong and what to do"): the real ``run_app`` composition root on real, damaged or locked SQLite
files. A damaged database is offered its newest backup (the damaged file is kept); without a
backup there is no such offer and Quit gives the CLI's exit code with the file untouched; a
locked database offers Try again.
"""

from __future__ import annotations

import asyncio
import shutil
import signal
import sqlite3
from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication

from foya_desktop.app import run_app
from foya_desktop.engine.bootstrap import build_kernel
from foya_desktop.providers.keys import KeyStore
from foya_desktop.store.home import Home
from foya_desktop.ui.main_window import MainWindow
from foya_desktop.ui.storage_fault import StorageFaultDialog
from tests.helpers.fake_keyring import MemoryKeyring
from tests.ui.helpers import wait_until

EXIT_CORRUPT = 14


async def _home_with(root: Path, *titles: str) -> Home:
    home = Home(root)
    kernel = build_kernel(home, keystore=KeyStore(MemoryKeyring()))
    for title in titles:
        await kernel.sessions.create_session(title=title)
    await kernel.close()
    con = sqlite3.connect(home.database)
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()
    return home


def _damage(home: Home) -> bytes:
    damaged = b"this is not sqlite" + home.database.read_bytes()[18:]
    home.database.write_bytes(damaged)
    return damaged


def _dialog() -> StorageFaultDialog | None:
    return next((w for w in QApplication.topLevelWidgets()
                 if isinstance(w, StorageFaultDialog) and w.isVisible()), None)


def _window() -> MainWindow | None:
    return next((w for w in QApplication.topLevelWidgets() if isinstance(w, MainWindow) and w.isVisible()), None)


@pytest.fixture(autouse=True)
def _isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FOYA_HOME", str(tmp_path / "foya-home"))
    monkeypatch.setenv("PYTHON_KEYRING_BACKEND", "keyring.backends.fail.Keyring")


async def test_a_damaged_database_offers_the_newest_backup_and_restores_it(tmp_path: Path) -> None:
    home = await _home_with(tmp_path / "foya-home", "kept in the backup")
    home.backups.mkdir(exist_ok=True)
    shutil.copy(home.database, home.backups / "foya-schema6-20261201-120000.sqlite3")
    damaged = _damage(home)

    app = asyncio.ensure_future(run_app(home.root, use_tray=False))
    await wait_until(lambda: _dialog() is not None, timeout=20, what="the storage-fault dialog")
    dialog = _dialog()
    assert dialog is not None
    assert str(home.root) in dialog.heading.text() and "damaged" in dialog.detail.text()
    assert dialog.restore_button is not None and dialog.retry_button is None
    dialog.grab().save(str(Path("/tmp/foya-shots") / "storage-fault-damaged.png"))
    dialog.restore_button.click()

    await wait_until(lambda: _window() is not None, timeout=20, what="the window after the restore")
    window = _window()
    assert window is not None
    await wait_until(lambda: window.tree_model.rowCount() > 0, what="sessions listed")
    assert "Restored the backup foya-schema6-20261201-120000.sqlite3" in window.statusBar().currentMessage()
    (kept,) = home.root.glob("foya.sqlite3.damaged-*")
    assert kept.read_bytes() == damaged  # the damaged file is kept, byte for byte, for a repair
    window.quit_controller.request_quit()
    assert await asyncio.wait_for(app, 20) == 0
    con = sqlite3.connect(home.database)
    assert [r[0] for r in con.execute("SELECT title FROM session_row")] == ["kept in the backup"]
    con.close()


async def test_without_a_backup_quit_gives_the_exit_code_and_the_file_is_untouched(tmp_path: Path) -> None:
    home = await _home_with(tmp_path / "foya-home", "only copy")
    damaged = _damage(home)
    app = asyncio.ensure_future(run_app(home.root, use_tray=False))
    await wait_until(lambda: _dialog() is not None, timeout=20, what="the storage-fault dialog")
    dialog = _dialog()
    assert dialog is not None
    assert dialog.restore_button is None and ".recover" in dialog.detail.text()
    dialog.quit_button.click()
    assert await asyncio.wait_for(app, 20) == EXIT_CORRUPT
    assert home.database.read_bytes() == damaged and not list(home.root.glob("foya.sqlite3.damaged-*"))


async def test_a_locked_database_offers_try_again(tmp_path: Path) -> None:
    home = await _home_with(tmp_path / "foya-home", "waiting for the lock")
    holder = sqlite3.connect(home.database, timeout=1, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    app = asyncio.ensure_future(run_app(home.root, use_tray=False))
    try:
        await wait_until(lambda: _dialog() is not None, timeout=40, what="the storage-fault dialog")
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    dialog = _dialog()
    assert dialog is not None and dialog.retry_button is not None and dialog.restore_button is None
    assert "locked" in dialog.detail.text()
    dialog.retry_button.click()
    await wait_until(lambda: _window() is not None, timeout=30, what="the window after Try again")
    window = _window()
    assert window is not None
    window.quit_controller.request_quit()
    assert await asyncio.wait_for(app, 20) == 0


async def test_sigterm_while_the_dialog_waits_quits_with_the_exit_code(tmp_path: Path) -> None:
    """A logout or ``kill`` sends SIGTERM: the dialog must not keep the app alive until someone
    clicks (it ignored the signal for ten minutes under Xvfb)."""
    home = await _home_with(tmp_path / "foya-home", "only copy")
    damaged = _damage(home)
    app = asyncio.ensure_future(run_app(home.root, use_tray=False))
    await wait_until(lambda: _dialog() is not None, timeout=20, what="the storage-fault dialog")
    handler = signal.getsignal(signal.SIGTERM)
    assert getattr(handler, "__self__", None).__class__.__name__ == "_QuitOnSignals"  # the app's own: safe
    signal.raise_signal(signal.SIGTERM)
    assert await asyncio.wait_for(app, 20) == EXIT_CORRUPT
    assert _dialog() is None and home.database.read_bytes() == damaged
