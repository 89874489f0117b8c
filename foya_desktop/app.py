"""The desktop app's composition root: Qt application, qasync loop, kernel, window.

asyncio runs inside Qt's event loop (qasync), so engine coroutines and
widgets share one thread and never need locks. The app quits only when the
window's ``QuitController`` says every running turn has finished and been
stored; then the kernel is closed and the loop ends.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import qasync
from PySide6.QtCore import QCoreApplication, QEvent, QObject, QTimer
from PySide6.QtWidgets import QApplication, QStyleFactory

from foya_desktop import DESKTOP_ID
from foya_desktop.core.errors import FoyaError
from foya_desktop.engine.bootstrap import open_kernel
from foya_desktop.logging_setup import setup_logging
from foya_desktop.store.home import Home, default_home
from foya_desktop.store.preferences import PreferencesFile
from foya_desktop.store.restore import Restored, restore_newest_backup
from foya_desktop.ui import i18n, storage_fault
from foya_desktop.ui.bridge import EngineBridge
from foya_desktop.ui.error_text import error_text
from foya_desktop.ui.gc_timer import GuiThreadCollector
from foya_desktop.ui.icons import app_icon
from foya_desktop.ui.main_window import MainWindow
from foya_desktop.ui.tray.single_instance import InstanceServer, hand_over, instance_address
from foya_desktop.ui.window_host import WindowHost

if TYPE_CHECKING:
    from foya_desktop.engine.kernel import Kernel


def main(argv: Sequence[str] | None = None) -> int:
    """Open the window; returns the process exit code."""
    args = list(argv) if argv is not None else sys.argv[1:]
    folder = folder_argument(args)
    app = make_application(args)
    home = default_home()
    setup_logging(home)
    address = instance_address(home.root)
    if hand_over(address, folder):  # one app per data folder (ui/tray/single_instance.py)
        print(f"Foya is already running; its window was brought to the front"
              f"{' with a new session in ' + folder if folder else ''}.", flush=True)
        return 0
    instance = InstanceServer(address)
    instance.listen()
    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    collector = GuiThreadCollector(app)
    collector.start()
    try:
        with loop:
            return int(loop.run_until_complete(run_app(home.root, instance=instance, folder=folder)))
    finally:
        instance.close()
        collector.stop()


def folder_argument(args: Sequence[str]) -> str:
    """The folder of ``foya PATH`` (absolute), or "" when the launch names none."""
    for arg in args:
        if not arg.startswith("-") and Path(arg).expanduser().is_dir():
            return str(Path(arg).expanduser().resolve())
    return ""


def make_application(args: list[str]) -> QApplication:
    """The QApplication with Foya's name, icon and a consistent style on Linux."""
    existing = QApplication.instance()
    app = existing if isinstance(existing, QApplication) else QApplication([sys.argv[0], *args])
    app.setApplicationName("Foya")
    app.setApplicationDisplayName("Foya")
    app.setOrganizationName("Foya")
    app.setDesktopFileName(DESKTOP_ID)  # matches the installed .desktop file: docks group the windows
    app.setWindowIcon(app_icon())
    app.setQuitOnLastWindowClosed(False)  # the QuitController decides when to quit
    styles = QStyleFactory.keys()
    if sys.platform.startswith("linux") and "Fusion" in styles:
        app.setStyle("Fusion")
    return app


async def run_app(home: Path | None = None, *, use_tray: bool | None = None,
                  instance: InstanceServer | None = None, folder: str = "") -> int:
    """Open the kernel, show the window, and wait until quitting is safe.

    ``instance`` delivers later launches to the window; ``folder`` (``foya PATH``) gets a new session.

    The translators go in first: every widget reads its texts when it is built.
    """
    data = Home(home) if home is not None else default_home()
    i18n.install_for(data)
    opened = await _open_or_explain(data)
    if isinstance(opened, int):
        return opened
    kernel, restored = opened
    host = WindowHost(lambda: MainWindow(kernel, EngineBridge(kernel.bus), use_tray=use_tray,
                                         preferences=PreferencesFile(data)))
    done: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    def finish() -> None:
        if not done.done():
            done.set_result(None)

    def adopt(window: MainWindow) -> None:
        """Wire a (new) window: quitting ends the app; later launches come to it."""
        window.quit_controller.finished.connect(finish)
        if instance is not None:
            instance.activated.connect(window.handle_launch)

    adopt(host.window)
    host.window_changed.connect(adopt)  # a language change rebuilt it (ui/window_host.py)
    _quit_on_signals(host)
    first_paint = _FirstPaint(host.window, _smoke_quit_ms())
    host.window.show()
    if restored is not None:
        kept = restored.damaged_copy.name if restored.damaged_copy else "—"
        host.window.statusBar().showMessage(QCoreApplication.translate(
            "App", "Restored the backup {backup}; the damaged database is kept as {damaged}.").format(
            backup=restored.backup.name, damaged=kept))
    warm: asyncio.Future[None] | None = None
    try:
        await first_paint.wait(FIRST_PAINT_WAIT_S)  # the frame first, then fill it (issue 14)
        warm = asyncio.get_running_loop().run_in_executor(None, warm_up)
        await host.window.start()
        kernel.watch_other_processes()  # `foya` commands beside the window show up in it
        if folder:
            host.window.handle_launch(folder)
        await done
    finally:
        window = host.window
        window.bridge.close()
        await window.tray_agent.close()
        await kernel.close()
        window.hide()
        window.deleteLater()
        del first_paint
        if warm is not None:
            with contextlib.suppress(Exception):
                await warm  # a failed warm-up only means the first code block pays for its lexer
    return 0


SMOKE_ENV = "FOYA_SMOKE_QUIT_MS"
"""Test hook: when set to a number of milliseconds, the app prints :data:`SMOKE_PAINTED` on
stdout at the window's first paint and then quits (the normal way, through the
``QuitController``) that many milliseconds later. ``tests/ui/test_app_smoke.py`` and
``benchmarks/startup.py`` use it."""

SMOKE_PAINTED = "foya: first paint"

SMOKE_CPU = "foya: cpu seconds at first paint:"
"""Printed right after :data:`SMOKE_PAINTED`: this process's user + system CPU time by then (a
figure the machine's load distorts far less than wall time; ``benchmarks/startup.py``)."""

SMOKE_MODULES_ENV = "FOYA_SMOKE_MODULES"
"""With the smoke hook: also print :data:`SMOKE_MODULES` and the sorted names of every module
loaded at the first paint, on one line (the start-up import test reads it)."""

SMOKE_MODULES = "foya: modules at first paint:"

FIRST_PAINT_WAIT_S = 2.0
"""How long start-up waits for the first paint before filling the window anyway (a window that
starts minimised, or a platform that paints late, still gets its sessions)."""


def warm_up() -> None:
    """Work whose first use is slow, done once on a worker thread after the first paint:
    Pygments compiles its common lexers, so the first code block shown does not stall the GUI."""
    from foya_desktop.ui.timeline import docs

    docs.warm_up()


class _FirstPaint(QObject):
    """Watches the window for its first paint event; with the smoke hook, reports it and quits."""

    def __init__(self, window: MainWindow, quit_after_ms: int | None) -> None:
        super().__init__(window)
        self._window = window
        self._quit_after_ms = quit_after_ms
        self._painted = asyncio.Event()
        window.installEventFilter(self)

    async def wait(self, seconds: float) -> None:
        """Until the first paint, or ``seconds`` at most."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._painted.wait(), seconds)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self._window and event.type() == QEvent.Type.Paint:
            self._window.removeEventFilter(self)
            self._painted.set()
            if self._quit_after_ms is not None:
                cpu = os.times()
                print(SMOKE_PAINTED, flush=True)
                print(f"{SMOKE_CPU} {cpu.user + cpu.system:.3f}", flush=True)
                if os.environ.get(SMOKE_MODULES_ENV):
                    print(SMOKE_MODULES, " ".join(sorted(sys.modules)), flush=True)
                QTimer.singleShot(self._quit_after_ms, self._window.quit_controller.request_quit)
        return False


def _smoke_quit_ms() -> int | None:
    value = os.environ.get(SMOKE_ENV, "").strip()
    if not value:
        return None
    try:
        return max(0, int(value))
    except ValueError:
        print(f"{SMOKE_ENV} must be a number of milliseconds, not {value!r}; ignored.", file=sys.stderr)
        return None


def _quit_on_signals(host: WindowHost) -> None:
    """Ctrl+C / SIGTERM quit like the menu does: running turns finish first.

    NOTE: Python runs signal handlers only between bytecodes, and Qt's C++ loop
    may sleep for long; a cheap periodic timer gives the interpreter a chance.
    """
    def request(_signum: int, _frame: object) -> None:
        QTimer.singleShot(0, host.window.quit_controller.request_quit)

    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, request)
    wake = QTimer(host)
    wake.timeout.connect(lambda: None)
    wake.start(250)


async def _open_or_explain(data: Home) -> tuple[Kernel, Restored | None] | int:
    """The kernel, or — when the data folder cannot be opened — the storage-fault dialog until the
    person restores a backup, retries, or quits (then the fault's exit code, as the CLI's)."""
    restored: Restored | None = None
    note = ""
    while True:
        try:
            return await open_kernel(data.root, kind="window"), restored
        except FoyaError as error:
            choice = await storage_fault.ask(error, data, note)
            note = ""
            if choice == "quit":
                return error.exit_code
            if choice == "restore":
                try:
                    restored = await asyncio.to_thread(restore_newest_backup, data)
                except (FoyaError, OSError) as failed:
                    why = error_text(failed) if isinstance(failed, FoyaError) else str(failed)
                    note = QCoreApplication.translate(
                        "App", "The backup could not be restored: {why}").format(why=why)
