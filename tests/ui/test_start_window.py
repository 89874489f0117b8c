"""The start frame (issue 14: start → first painted window; the engine is attached after the
paint): the real ``run_app`` on real SQLite files. While the engine is not open yet the frame
is what the person has — in their language and theme, at the remembered place — and nothing in
it can act on a session; a second launch is kept for the real window, Quit is honoured once the
engine can be closed, and the real window takes the frame's place and size.

A damaged database with a backup holds start-up at the storage-fault dialog (over the frame)
for as long as a test needs: a deterministic "engine not attached yet".
"""

from __future__ import annotations

import asyncio
import base64
import dataclasses
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QMainWindow, QToolBar

from foya_desktop.app import run_app
from foya_desktop.engine.bootstrap import build_kernel
from foya_desktop.providers.keys import KeyStore
from foya_desktop.store.home import Home
from foya_desktop.store.preferences import PreferencesFile
from foya_desktop.ui.main_window import MainWindow
from foya_desktop.ui.start_window import StartWindow
from foya_desktop.ui.storage_fault import StorageFaultDialog
from tests.helpers.fake_keyring import MemoryKeyring
from tests.ui.helpers import settle, wait_until


@pytest.fixture(autouse=True)
def _isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FOYA_HOME", str(tmp_path / "foya-home"))
    monkeypatch.setenv("PYTHON_KEYRING_BACKEND", "keyring.backends.fail.Keyring")


async def _held_at_the_dialog(root: Path) -> Home:
    """A data folder whose database is damaged, with a good backup: start-up waits at the dialog."""
    home = Home(root)
    kernel = build_kernel(home, keystore=KeyStore(MemoryKeyring()))
    await kernel.sessions.create_session(title="in the backup")
    await kernel.close()
    con = sqlite3.connect(home.database)
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()
    home.backups.mkdir(exist_ok=True)
    shutil.copy(home.database, home.backups / "foya-schema6-20261201-120000.sqlite3")
    home.database.write_bytes(b"this is not sqlite" + home.database.read_bytes()[18:])
    return home


def _shown(kind: type[QMainWindow] | type[StorageFaultDialog]) -> list[QMainWindow | StorageFaultDialog]:
    return [w for w in QApplication.topLevelWidgets() if isinstance(w, kind) and w.isVisible()]


def _only(kind: type[QMainWindow]) -> QMainWindow:
    (window,) = _shown(kind)
    assert isinstance(window, QMainWindow)
    return window


async def test_before_the_engine_is_open_the_frame_acts_on_nothing_and_keeps_a_second_launch(
        tmp_path: Path) -> None:
    """The frame is up without the engine: session actions disabled (clicking them does nothing),
    "Opening…" said; a second launch's folder opens in the real window, which takes the frame's
    place and size."""
    home = await _held_at_the_dialog(tmp_path / "foya-home")
    project = tmp_path / "project"
    project.mkdir()
    app = asyncio.ensure_future(run_app(home.root, use_tray=False))
    await wait_until(lambda: bool(_shown(StorageFaultDialog)), timeout=20, what="the storage-fault dialog")
    frame = _only(StartWindow)
    assert isinstance(frame, StartWindow) and not _shown(MainWindow)
    (dialog,) = _shown(StorageFaultDialog)
    assert isinstance(dialog, StorageFaultDialog) and dialog.parent() is frame  # over the frame
    assert frame.opening.text() == "Foya cannot open its data folder."  # behind the dialog
    assert [a.isEnabled() for a in frame.disabled_actions] == [False, False, False]
    for action in frame.disabled_actions:
        action.trigger()  # a disabled action does nothing (and nothing crashes)
    assert frame.quit_action.isEnabled() and not frame.sidebar.isEnabled()
    frame.grab().save(str(Path("/tmp/foya-shots") / "start-frame-opening.png"))
    frame.resize(900, 640)
    frame.handle_launch(str(project))  # what the single-instance server delivers meanwhile
    assert dialog.restore_button is not None
    dialog.restore_button.click()

    await wait_until(lambda: bool(_shown(MainWindow)), timeout=30, what="the real window")
    window = _only(MainWindow)
    assert isinstance(window, MainWindow)
    assert (window.width(), window.height()) == (900, 640)  # the frame's size, as the person left it
    await wait_until(lambda: any(s.workdir == str(project) for s in window.tree_model.sessions()),
                     timeout=20, what="the session of the second launch")
    await settle()
    assert not _shown(StartWindow)
    window.quit_controller.request_quit()
    assert await asyncio.wait_for(app, 20) == 0


async def test_quit_while_the_engine_opens_ends_start_up_once_it_is_open(tmp_path: Path) -> None:
    """Quit (or closing the frame) before the engine is open: the engine is opened, closed again,
    and start-up returns 0 without ever building the real window. Another program's write lock
    holds the open (it waits for the lock) while the frame is closed."""
    home = Home(tmp_path / "foya-home")
    kernel = build_kernel(home, keystore=KeyStore(MemoryKeyring()))
    await kernel.sessions.create_session(title="waiting for the lock")
    await kernel.close()
    holder = sqlite3.connect(home.database, timeout=1, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        app = asyncio.ensure_future(run_app(home.root, use_tray=False))
        await wait_until(lambda: bool(_shown(StartWindow)), timeout=20, what="the start frame")
        frame = _only(StartWindow)
        assert isinstance(frame, StartWindow)
        await settle(3)
        assert not app.done() and not _shown(StorageFaultDialog), "still opening, waiting for the lock"
        frame.close()  # the title bar's ×: there is nothing to keep running in a tray yet
        assert frame.quitting and frame.statusBar().currentMessage() == "Quitting…"
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert await asyncio.wait_for(app, 30) == 0
    assert not _shown(MainWindow) and not _shown(StartWindow) and not _shown(StorageFaultDialog)


async def test_quit_while_the_storage_fault_dialog_waits_closes_it(tmp_path: Path) -> None:
    """Closing the frame behind the dialog is quitting: the dialog goes with it and start-up
    returns the fault's exit code (as the dialog's own Quit does), the damaged file untouched."""
    home = await _held_at_the_dialog(tmp_path / "foya-home")
    damaged = home.database.read_bytes()
    app = asyncio.ensure_future(run_app(home.root, use_tray=False))
    await wait_until(lambda: bool(_shown(StorageFaultDialog)), timeout=20, what="the storage-fault dialog")
    frame = _only(StartWindow)
    assert isinstance(frame, StartWindow)
    frame.close()
    assert await asyncio.wait_for(app, 30) == 14  # the CLI's exit code for a damaged database
    assert not _shown(MainWindow) and not _shown(StartWindow) and not _shown(StorageFaultDialog)
    assert home.database.read_bytes() == damaged


async def test_the_frame_comes_up_where_the_window_was_and_in_the_persons_language(tmp_path: Path) -> None:
    """The frame restores the remembered geometry and sidebar width (the real window then keeps
    them) and reads its texts in the stored language, before the engine is open."""
    home = await _held_at_the_dialog(tmp_path / "foya-home")
    probe = QMainWindow()
    probe.resize(700, 500)
    geometry = base64.b64encode(bytes(probe.saveGeometry().data())).decode("ascii")
    probe.deleteLater()
    file = PreferencesFile(home)
    file.save(dataclasses.replace(file.load(), window_geometry=geometry, splitter_sizes=(300, 400),
                                  language="zh_CN"))
    app = asyncio.ensure_future(run_app(home.root, use_tray=False))
    try:
        await wait_until(lambda: bool(_shown(StorageFaultDialog)), timeout=20, what="the storage-fault dialog")
        frame = _only(StartWindow)
        assert isinstance(frame, StartWindow)
        assert (frame.width(), frame.height()) == (700, 500)
        assert frame.splitter.sizes()[0] == 300
        assert frame.menuBar().actions()[0].text() == "文件(&F)"  # the real window's translation
        assert frame.opening.text() == "Foya 无法打开其数据文件夹。"
        (dialog,) = _shown(StorageFaultDialog)
        assert isinstance(dialog, StorageFaultDialog) and dialog.restore_button is not None
        dialog.restore_button.click()
        await wait_until(lambda: bool(_shown(MainWindow)), timeout=30, what="the real window")
        window = _only(MainWindow)
        assert isinstance(window, MainWindow)
        # the frame's size, unless the real window needs more room than its smallest size hint
        assert (window.width(), window.height()) == (max(700, window.minimumSizeHint().width()), 500)
        await wait_until(lambda: window.tree_model.rowCount() > 0, timeout=20, what="sessions listed")
        window.quit_controller.request_quit()
        assert await asyncio.wait_for(app, 20) == 0
    finally:
        from foya_desktop.ui import i18n

        i18n.install("en")


def test_the_frame_is_built_and_painted_without_pyside_building_its_qt_namespace(tmp_path: Path) -> None:
    """PySide builds every enum of its ``Qt`` namespace at the first use of any (~70 ms here, a
    quarter of a bare window's start-up): the frame must get to its first paint without one
    (``ui/start_window.py``); the real window pays it after the paint. In a fresh interpreter."""
    code = (
        "import sys\n"
        "import PySide6.QtCore as core\n"
        "from foya_desktop.app import make_application, show_start_window\n"
        "from foya_desktop.store.home import Home\n"
        "from pathlib import Path\n"
        "app = make_application([])\n"
        f"start = show_start_window(Home(Path({str(tmp_path / 'home')!r})), None)\n"
        "start.first_paint.wait_here(20)\n"
        "print(start.first_paint.done, 'Qt' in vars(core))\n")
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120,
                          check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", "False"]  # painted; no Qt namespace built


def test_the_frames_toolbar_looks_like_the_real_one(qapp: QApplication) -> None:
    """The by-value tool button style is the real toolbar's (text beside the icon)."""
    frame = StartWindow()
    (toolbar,) = frame.findChildren(QToolBar)
    assert toolbar.toolButtonStyle() == Qt.ToolButtonStyle.ToolButtonTextBesideIcon
    assert toolbar.objectName() == "mainToolbar" and [a.text() for a in toolbar.actions()] == [
        "New session", "Connections…", "VPs…"]
    assert not any(a.isEnabled() for a in toolbar.actions())
    frame.deleteLater()


def test_sigterm_right_after_the_first_paint_quits_cleanly(tmp_path: Path) -> None:
    """SIGTERM (or Ctrl+C) while the frame is up and the engine still loading: start-up ends
    the normal way once the engine is open — exit code 0, no traceback, no real window needed."""
    from foya_desktop.app import SMOKE_ENV, SMOKE_PAINTED

    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "FOYA_HOME": str(tmp_path / "home"),
           SMOKE_ENV: "600000", "PYTHONFAULTHANDLER": "1"}
    app = subprocess.Popen([sys.executable, "-m", "foya_desktop"], env=env, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True)
    try:
        assert app.stdout is not None
        assert app.stdout.readline().strip() == SMOKE_PAINTED
        app.send_signal(signal.SIGTERM)
        _out, err = app.communicate(timeout=90)
    finally:
        if app.poll() is None:
            app.kill()
            app.communicate(timeout=10)
    assert app.returncode == 0, err
    assert "Traceback" not in err and "Task was destroyed" not in err, err
