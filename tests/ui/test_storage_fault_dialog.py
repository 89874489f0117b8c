"""The window's start-up on a data folder it cannot open (issue 14: "a dialog that says what is
wrong and what to do"): the real ``run_app`` composition root on real, damaged or locked SQLite
files. A damaged database is offered its newest backup (the damaged file is kept); without a
backup there is no such offer and Quit gives the CLI's exit code with the file untouched; a
locked database offers Try again. Every other fault the store reports — a full disk, a read-only
folder, an immutable file, an empty file, a schema it does not know, a failed upgrade — gets the
same dialog (not a traceback) with its own sentence, and Quit leaves the file as it was.

The full disk and the read-only folder are real mounts (a tmpfs, a read-only bind mount) over
the test's own data folder, made as root in this process's mount namespace (the window runs in
this process) and unmounted after the test; skipped where mounting is not allowed.
"""

from __future__ import annotations

import asyncio
import errno
import os
import shutil
import signal
import sqlite3
import subprocess
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
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
from tests.ui.helpers import settle, wait_until

EXIT_FULL, EXIT_READ_ONLY, EXIT_CORRUPT, EXIT_SCHEMA, EXIT_UPGRADE = 12, 13, 14, 15, 16


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


async def _window_after_try_again(dialog: StorageFaultDialog) -> MainWindow:
    """Click Try again and wait for the real window it opens."""
    assert dialog.retry_button is not None
    dialog.retry_button.click()
    await wait_until(lambda: _window() is not None, timeout=30, what="the window after Try again")
    window = _window()
    assert window is not None
    return window


@pytest.fixture(autouse=True)
async def _no_dialog_left() -> AsyncIterator[None]:
    """A test that fails leaves its dialog open and its app waiting on it: Quit it, so the next test
    does not find that dialog and fail for the wrong reason (one broken case, not all of them)."""
    yield
    for left in QApplication.topLevelWidgets():
        if isinstance(left, StorageFaultDialog) and left.isVisible():
            left.reject()
    await settle()


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
    window = await _window_after_try_again(dialog)
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


Cleanup = Callable[[Callable[[], object]], None]
"""Registers what undoes a fault (``request.addfinalizer``): an unmount, ``chattr -i``."""


def _run(*cmd: str) -> subprocess.CompletedProcess[str]:
    """A root tool (mount, chattr); its failure means "not possible here", so it is returned."""
    return subprocess.run(list(cmd), capture_output=True, text=True, check=False)


def _mount_or_skip(cleanup: Cleanup, target: Path, *args: str) -> None:
    """Mount (lazily unmounted after the test, even one that fails), or skip where not allowed."""
    done = _run("mount", *args)
    if done.returncode != 0:
        pytest.skip(f"mounting is not allowed here: {done.stderr.strip()}")
    cleanup(lambda: _run("umount", "-l", str(target)))


def _fill_disk(home: Home, cleanup: Cleanup) -> None:
    """The data folder on a tmpfs with no room left (its files copied onto it first)."""
    kept = home.root.with_name("before-the-tmpfs")
    shutil.copytree(home.root, kept)
    _mount_or_skip(cleanup, home.root, "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(home.root))
    shutil.copytree(kept, home.root, dirs_exist_ok=True)
    fd = os.open(home.root / "filler", os.O_WRONLY | os.O_CREAT)
    try:
        with pytest.raises(OSError) as full:  # noqa: PT012 — written until there is no room
            while True:
                os.write(fd, b"\0" * 4096)
    finally:
        os.close(fd)
    assert full.value.errno == errno.ENOSPC


def _read_only_folder(home: Home, cleanup: Cleanup) -> None:
    """The data folder bind-mounted read-only over itself (root ignores file modes, not mounts)."""
    _mount_or_skip(cleanup, home.root, "--bind", str(home.root), str(home.root))
    if _run("mount", "-o", "remount,bind,ro", str(home.root)).returncode != 0:
        pytest.skip("a read-only remount is not allowed here")


def _immutable_file(home: Home, cleanup: Cleanup) -> None:
    """The database file immutable (``chattr +i``): the folder is writable, the file is not."""
    if _run("chattr", "+i", str(home.database)).returncode != 0:
        pytest.skip("chattr +i is not possible here")
    cleanup(lambda: _run("chattr", "-i", str(home.database)))


def _empty_file(home: Home, cleanup: Cleanup) -> None:
    """A 0-byte database (what a crash while creating it may leave): never replaced by an empty one."""
    home.database.write_bytes(b"")


def _schema(version: str) -> Callable[[Home, Cleanup], None]:
    """The database records ``version``: one from a newer Foya, or one no Foya wrote."""
    def record(home: Home, cleanup: Cleanup) -> None:
        con = sqlite3.connect(home.database)
        con.execute("UPDATE meta_row SET value=? WHERE key='schema_version'", (version,))
        con.commit()
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        con.close()
    return record


def _failing_upgrade(home: Home, cleanup: Cleanup) -> None:
    """An old schema (1) whose upgrade cannot run: it has to alter a table that is now a view."""
    con = sqlite3.connect(home.database)
    con.execute("UPDATE meta_row SET value='1' WHERE key='schema_version'")
    con.execute("DROP TABLE task_row")
    con.execute("CREATE VIEW task_row AS SELECT 1 AS id")
    con.commit()
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()


@dataclass(frozen=True)
class Fault:
    """One storage fault: how to make it, and what the window must say and do about it."""

    make: Callable[[Home, Cleanup], None]
    exit_code: int
    says: str
    """Words of the CLI's sentence that name what is wrong (the window shows the same sentence)."""
    retry: bool = False
    """Whether Try again is offered (a full disk: after the person made room)."""


FAULTS = {
    "disk-full": Fault(_fill_disk, EXIT_FULL, "is full", retry=True),
    "read-only-folder": Fault(_read_only_folder, EXIT_READ_ONLY, "read-only"),
    "immutable-file": Fault(_immutable_file, EXIT_READ_ONLY, "cannot write"),
    "zero-length": Fault(_empty_file, EXIT_CORRUPT, "is empty (0 bytes"),
    "schema-too-new": Fault(_schema("99999"), EXIT_SCHEMA, "newer version of Foya"),
    "schema-never-written": Fault(_schema("abc"), EXIT_SCHEMA, "no Foya ever wrote"),
    "upgrade-fails": Fault(_failing_upgrade, EXIT_UPGRADE, "could not be upgraded"),
}


@pytest.mark.parametrize("name", sorted(FAULTS))
async def test_every_storage_fault_gets_the_dialog_and_quit_leaves_the_file(
        tmp_path: Path, name: str, request: pytest.FixtureRequest, shots: Path) -> None:
    """The window opens on the fault's sentence in the dialog — not a traceback, not an empty
    window — offers only what fits (no backup to restore: none exists), and Quit gives the CLI's
    exit code with the database exactly as it was."""
    fault = FAULTS[name]
    home = await _home_with(tmp_path / "foya-home", "kept as it was")
    fault.make(home, request.addfinalizer)
    before = home.database.read_bytes()
    app = asyncio.ensure_future(run_app(home.root, use_tray=False))
    await wait_until(lambda: _dialog() is not None or app.done(), timeout=20, what="the storage-fault dialog")
    assert not app.done(), app.result()  # a crash ends the app (a traceback), a fault waits in the dialog
    dialog = _dialog()
    assert dialog is not None and _window() is None
    assert str(home.root) in dialog.heading.text()
    assert fault.says in dialog.detail.text(), dialog.detail.text()
    assert "foya " not in dialog.detail.text()  # no command-line advice in the window
    assert (dialog.retry_button is not None) == fault.retry and dialog.restore_button is None
    dialog.grab().save(str(shots / f"storage-fault-{name}.png"))
    dialog.quit_button.click()
    assert await asyncio.wait_for(app, 20) == fault.exit_code
    assert home.database.read_bytes() == before
    assert not list(home.root.glob("foya.sqlite3.damaged-*"))


async def test_a_full_disk_opens_after_making_room_and_try_again(tmp_path: Path,
                                                                 request: pytest.FixtureRequest) -> None:
    """Try again is what the dialog offers for a full disk: once there is room it opens the window
    on the sessions stored before."""
    home = await _home_with(tmp_path / "foya-home", "stored before the disk filled up")
    _fill_disk(home, request.addfinalizer)
    app = asyncio.ensure_future(run_app(home.root, use_tray=False))
    await wait_until(lambda: _dialog() is not None or app.done(), timeout=20, what="the storage-fault dialog")
    dialog = _dialog()
    assert dialog is not None and dialog.retry_button is not None, app
    (home.root / "filler").unlink()
    window = await _window_after_try_again(dialog)
    await wait_until(lambda: window.tree_model.rowCount() > 0, what="sessions listed")
    window.quit_controller.request_quit()
    assert await asyncio.wait_for(app, 20) == 0
    con = sqlite3.connect(home.database)
    assert [r[0] for r in con.execute("SELECT title FROM session_row")] == ["stored before the disk filled up"]
    con.close()


def _folder_at_the_database(root: Path) -> Home:
    """A data folder whose database path is a folder of the person's (it was "the disk is full")."""
    home = Home(root)
    home.database.mkdir(parents=True)
    (home.database / "mine.txt").write_text("keep me")
    return home


async def test_a_folder_at_the_database_path_is_named_and_quit_gives_its_exit_code(tmp_path: Path) -> None:
    home = _folder_at_the_database(tmp_path / "foya-home")
    app = asyncio.ensure_future(run_app(home.root, use_tray=False))
    await wait_until(lambda: _dialog() is not None or app.done(), timeout=20, what="the storage-fault dialog")
    assert not app.done(), app.result()
    dialog = _dialog()
    assert dialog is not None
    text = dialog.detail.text()
    assert f"{home.database} is a folder, not a file" in text and "full" not in text, text
    assert dialog.retry_button is not None and dialog.restore_button is None
    dialog.quit_button.click()
    assert await asyncio.wait_for(app, 20) == EXIT_READ_ONLY
    assert (home.database / "mine.txt").read_text() == "keep me"


async def test_try_again_opens_once_the_folder_is_moved_away(tmp_path: Path) -> None:
    home = _folder_at_the_database(tmp_path / "foya-home")
    app = asyncio.ensure_future(run_app(home.root, use_tray=False))
    await wait_until(lambda: _dialog() is not None or app.done(), timeout=20, what="the storage-fault dialog")
    dialog = _dialog()
    assert dialog is not None and dialog.retry_button is not None, app
    home.database.rename(home.root / "moved-away")
    window = await _window_after_try_again(dialog)
    window.quit_controller.request_quit()
    assert await asyncio.wait_for(app, 20) == 0
    assert home.database.is_file() and (home.root / "moved-away" / "mine.txt").read_text() == "keep me"
