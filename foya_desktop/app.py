"""The desktop app's composition root: Qt application, first frame, qasync loop, kernel, window.

Start-up comes in two halves (issue 14: start → first painted window ≤ 1.5× a bare PySide6
window). First, with nothing but Qt and the preferences file loaded, the start frame
(``ui/start_window.py``) is shown and painted: the window's place, size, language and theme,
an empty sidebar and "Opening…". Only then are asyncio, qasync, the engine, the store and the
real window imported and built; the real window takes the frame's place once its sessions can
be listed. That is why this module imports them inside the functions that use them: whatever
it imports at the top is paid for before the first paint (``tests/ui/test_startup_imports.py``).

asyncio runs inside Qt's event loop (qasync), so engine coroutines and
widgets share one thread and never need locks. The app quits only when the
window's ``QuitController`` says every running turn has finished and been
stored; then the kernel is closed and the loop ends.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, QEvent, QEventLoop, QObject, QTimer, Signal
from PySide6.QtWidgets import QApplication

from foya_desktop import DESKTOP_ID
from foya_desktop.store.home import Home, default_home
from foya_desktop.store.preferences import PreferencesFile
from foya_desktop.ui.gc_timer import GuiThreadCollector
from foya_desktop.ui.icons import app_icon
from foya_desktop.ui.start_window import StartWindow, open_start_window
from foya_desktop.ui.tray.single_instance import InstanceServer, hand_over, instance_address

if TYPE_CHECKING:
    import asyncio

    from foya_desktop.core.errors import DatabaseCorrupt
    from foya_desktop.engine.kernel import Kernel
    from foya_desktop.store.restore import Restored
    from foya_desktop.ui.main_window import MainWindow
    from foya_desktop.ui.window_host import WindowHost


def main(argv: Sequence[str] | None = None) -> int:
    """Open the window; returns the process exit code."""
    args = list(argv) if argv is not None else sys.argv[1:]
    folder = folder_argument(args)
    app = make_application(args)
    home = default_home()
    address = instance_address(home.root)
    if hand_over(address, folder):  # one app per data folder (ui/tray/single_instance.py)
        print(f"Foya is already running; its window was brought to the front"
              f"{' with a new session in ' + folder if folder else ''}.", flush=True)
        return 0
    instance = InstanceServer(address)
    instance.listen()
    collector = GuiThreadCollector(app)
    collector.start()
    start = show_start_window(home, instance)
    start.first_paint.wait_here(FIRST_PAINT_WAIT_S)  # Qt's own loop: asyncio is not even loaded yet
    import asyncio  # after the first paint (see the module's docstring)

    import qasync

    from foya_desktop.logging_setup import setup_logging  # until now warnings went to stderr

    setup_logging(home)

    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    try:
        with loop:
            return int(loop.run_until_complete(run_app(home.root, instance=instance, folder=folder,
                                                       start=start, collector=collector)))
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
    """The QApplication with Foya's name and a consistent style on Linux (its icon comes after the
    first paint: :func:`set_window_icon`)."""
    linux = sys.platform.startswith("linux")
    existing = QApplication.instance()
    if isinstance(existing, QApplication):
        app = existing
        if linux:
            app.setStyle("Fusion")  # built into QtWidgets
    else:
        # NOTE: Qt's own "-style" argument, not setStyle(): touching QStyle from Python makes PySide
        # build its ~560 enum members (15 ms, on the way to the first paint). Fusion is built in.
        style = ["-style", "Fusion"] if linux else []
        app = QApplication([sys.argv[0], *style, *args])
    app.setApplicationName("Foya")
    app.setApplicationDisplayName("Foya")
    app.setOrganizationName("Foya")
    app.setDesktopFileName(DESKTOP_ID)  # matches the installed .desktop file: docks group the windows
    app.setQuitOnLastWindowClosed(False)  # the QuitController decides when to quit
    return app


@dataclass(frozen=True)
class Started:
    """The start frame on screen and the watcher of its first paint."""

    window: StartWindow
    first_paint: FirstPaint
    signals: _QuitOnSignals


def set_window_icon() -> None:
    """Give the application (and so every window without its own) Foya's icon. After the first
    paint: on X11 the window manager gets every packaged size as pixels (``_NET_WM_ICON``), nine
    PNGs up to 512 px decoded on the GUI thread — 40–100 ms measured under Xvfb, a third of a bare
    window's start-up. Docks that know the desktop file (``DESKTOP_ID``) show it from the start."""
    QApplication.setWindowIcon(app_icon())


def show_start_window(home: Home, instance: InstanceServer | None) -> Started:
    """Show the start frame in the person's language and theme; a second launch meanwhile is
    queued by it (delivered to the real window once it is up)."""
    window = open_start_window(PreferencesFile(home))
    if instance is not None:
        instance.activated.connect(window.handle_launch)
    first_paint = FirstPaint(window, _smoke_quit_ms())
    signals = _QuitOnSignals(window)  # from now on Ctrl+C / SIGTERM end start-up the normal way
    window.show()
    return Started(window, first_paint, signals)


async def run_app(home: Path | None = None, *, use_tray: bool | None = None,
                  instance: InstanceServer | None = None, folder: str = "",
                  start: Started | None = None, collector: GuiThreadCollector | None = None,
                  check_after_s: float | None = None) -> int:
    """Show the start frame (unless ``main`` did), open the kernel, put the real window in the
    frame's place, and wait until quitting is safe.

    ``instance`` delivers later launches to the window; ``folder`` (``foya PATH``) gets a new session;
    ``collector`` (``main``'s) is told when start-up is done; ``check_after_s``: when the background
    consistency check first looks whether it is due (default :data:`CHECK_AFTER_S`).

    When that check finds the database damaged, the window and its engine close and start-up
    begins again: its open now refuses the file (the failure is kept, ``store/integrity.py``), so
    the person gets the storage-fault dialog over a start frame, with the same ways out as at any
    start (restore the newest backup, open the data folder, quit with exit code 14).
    """
    data = Home(home) if home is not None else default_home()
    if start is None:
        start = show_start_window(data, instance)
    after = CHECK_AFTER_S if check_after_s is None else check_after_s
    try:
        damaged = await _run(data, start, start.signals, use_tray, instance, folder, collector, after)
    finally:
        start.signals.stop()
    if damaged is None:
        return 0
    if isinstance(damaged, int):
        return damaged
    return await run_app(data.root, use_tray=use_tray, instance=instance, collector=collector,
                         check_after_s=after)


def _say_restored(window: MainWindow, restored: Restored | None) -> None:
    """The status bar tells which backup was restored (if one was) and where the damaged database is kept."""
    if restored is None:
        return
    kept = restored.damaged_copy.name if restored.damaged_copy else "—"
    window.statusBar().showMessage(QCoreApplication.translate(
        "App", "Restored the backup {backup}; the damaged database is kept as {damaged}.").format(
        backup=restored.backup.name, damaged=kept))


async def _run(data: Home, start: Started, signals: _QuitOnSignals, use_tray: bool | None,
               instance: InstanceServer | None, folder: str, collector: GuiThreadCollector | None,
               check_after_s: float) -> int | DatabaseCorrupt | None:
    """``run_app`` from the frame's first paint on: open, swap the frames, run until quit; the exit
    code of a start that did not open, ``None`` after a quit, or the damage the background check
    found (the window is closed then)."""
    import asyncio

    frame = start.window
    await start.first_paint.wait(FIRST_PAINT_WAIT_S)  # the frame first, then fill it (issue 14)
    set_window_icon()
    opened = await _open_or_explain(data, frame)
    if isinstance(opened, int):
        _close_frame(frame, instance)
        return opened
    kernel, restored = opened
    if frame.quitting:  # closed, Quit or a signal while the engine was opening: nothing runs yet
        _close_frame(frame, instance)
        await kernel.close()
        return 0
    host = _replace_frame(frame, kernel, data, use_tray, instance)
    signals.host = host
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
    _say_restored(host.window, restored)
    warm = WarmUps()
    checks = _DamageWatch(data, finish, done, check_after_s)
    try:
        warm.start(warm_up)
        await host.window.start()
        warm.start(warm_up_providers)  # after the sessions are listed: its imports share the GIL
        if collector is not None:
            collector.freeze_startup()  # full collections now walk only what came after (ui/gc_timer.py)
        start.first_paint.filled(host.window)
        kernel.watch_other_processes()  # `foya` commands beside the window show up in it
        for launch_folder, token in frame.launches:  # handed over while the frame was up
            host.window.handle_launch(launch_folder, token)
        if folder:
            host.window.handle_launch(folder)
        await done
    finally:
        window = host.window
        window.runner.close()
        window.bridge.close()
        await window.tray_agent.close()
        await kernel.close()
        window.hide()
        window.deleteLater()
        await warm.finish()
    return checks.damage


class _DamageWatch:
    """The running window's background consistency check (``store/integrity.py``: when it runs
    and why) until the run is ``done``; ``damage`` is what it found, and ``found()`` ends the run."""

    def __init__(self, data: Home, found: Callable[[], None], done: asyncio.Future[None],
                 after_s: float) -> None:
        import asyncio

        from foya_desktop.store import integrity

        self.damage: DatabaseCorrupt | None = None

        def damaged(error: DatabaseCorrupt) -> None:
            self.damage = error
            found()

        task = asyncio.ensure_future(integrity.watch(data, damaged, first_after_s=after_s))
        done.add_done_callback(lambda _: task.cancel())


CHECK_AFTER_S = 30.0
"""How long after start the window first asks whether the background consistency check is due:
start-up and the first minutes of use have the two cores to themselves."""


def _replace_frame(frame: StartWindow, kernel: Kernel, data: Home, use_tray: bool | None,
                   instance: InstanceServer | None) -> WindowHost:
    """Build the real window at the frame's place and size, show it, then close the frame."""
    from foya_desktop.ui.bridge import EngineBridge
    from foya_desktop.ui.main_window import MainWindow
    from foya_desktop.ui.window_host import WindowHost, take_place

    host = WindowHost(lambda: MainWindow(kernel, EngineBridge(kernel.bus), use_tray=use_tray,
                                         preferences=PreferencesFile(data)))
    window = host.window
    take_place(window, frame)  # where the person has the frame now
    window.show()
    _close_frame(frame, instance)
    return host


def _close_frame(frame: StartWindow, instance: InstanceServer | None) -> None:
    if instance is not None:
        with contextlib.suppress(RuntimeError):  # not connected (run_app got a frame without one)
            instance.activated.disconnect(frame.handle_launch)
    frame.hide()
    frame.deleteLater()


SMOKE_ENV = "FOYA_SMOKE_QUIT_MS"
"""Test hook: when set to a number of milliseconds, the app prints :data:`SMOKE_PAINTED` on
stdout at the first paint of its window (the start frame), :data:`SMOKE_FILLED` once the real
window has its sessions listed, and then quits (the normal way, through the ``QuitController``)
that many milliseconds later. ``tests/ui/test_app_smoke.py`` and ``benchmarks/startup.py`` use it."""

SMOKE_PAINTED = "foya: first paint"

SMOKE_CPU = "foya: cpu seconds at first paint:"
"""Printed right after :data:`SMOKE_PAINTED`: this process's user + system CPU time by then (a
figure the machine's load distorts far less than wall time; ``benchmarks/startup.py``)."""

SMOKE_FILLED = "foya: sessions listed"
"""Printed when the real window, engine attached, has filled its sessions list and selected the
last session (``MainWindow.start()`` returned)."""

SMOKE_FILLED_CPU = "foya: cpu seconds at sessions listed:"

SMOKE_MODULES_ENV = "FOYA_SMOKE_MODULES"
"""With the smoke hook: also print :data:`SMOKE_MODULES` and the sorted names of every module
loaded at the first paint, on one line (the start-up import test reads it)."""

SMOKE_MODULES = "foya: modules at first paint:"

FIRST_PAINT_WAIT_S = 2.0
"""How long start-up waits for the first paint before filling the window anyway (a window that
starts minimised, or a platform that paints late, still gets its sessions)."""


class WarmUps:
    """Work whose first use is slow, started on worker threads during start-up and awaited at
    quit; a failed one only means the first use pays for what it loads."""

    def __init__(self) -> None:
        self._jobs: list[asyncio.Future[None]] = []

    def start(self, job: Callable[[], None]) -> None:
        import asyncio  # after the first paint (see the module's docstring)

        self._jobs.append(asyncio.get_running_loop().run_in_executor(None, job))

    async def finish(self) -> None:
        for job in self._jobs:
            with contextlib.suppress(Exception):
                await job


def warm_up() -> None:
    """Work whose first use is slow, done once on a worker thread after the first paint:
    Pygments compiles its common lexers, so the first code block shown does not stall the GUI."""
    from foya_desktop.ui.timeline import docs

    docs.warm_up()


def warm_up_providers() -> None:
    """The HTTP stack, loaded on a worker thread once the window is up: the first message sent
    then does not import it (the GUI thread froze 30–60 ms on that message; issue 14)."""
    from foya_desktop.providers import registry

    registry.warm_up()


class FirstPaint(QObject):
    """Watches the start frame for its first paint event; with the smoke hook, reports it, and
    later the filled sessions list, then quits.

    Qt-only on purpose: :meth:`wait_here` runs before asyncio is imported.

    Signals:
        painted(): the frame's first paint event arrived.
    """

    painted = Signal()

    def __init__(self, window: StartWindow, quit_after_ms: int | None) -> None:
        super().__init__(window)
        self._window = window
        self._quit_after_ms = quit_after_ms
        self.done = False
        self._waited = False  # one wait for the paint, not one per caller (main, then _run)
        window.installEventFilter(self)

    def wait_here(self, seconds: float) -> None:
        """Run Qt's loop until the first paint, or ``seconds`` at most (before asyncio exists)."""
        if self.done or self._waited:
            return
        self._waited = True
        loop = QEventLoop()
        self.painted.connect(loop.quit)
        QTimer.singleShot(int(seconds * 1000), loop.quit)
        loop.exec()
        self.painted.disconnect(loop.quit)

    async def wait(self, seconds: float) -> None:
        """Until the first paint, or ``seconds`` at most."""
        import asyncio

        if self.done or self._waited:
            return
        self._waited = True
        painted = asyncio.Event()
        self.painted.connect(painted.set)
        try:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(painted.wait(), seconds)
        finally:
            self.painted.disconnect(painted.set)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self._window and event.type() == QEvent.Type.Paint and not self.done:
            self._window.removeEventFilter(self)
            self.done = True
            if self._quit_after_ms is not None:
                print(SMOKE_PAINTED, flush=True)
                print(f"{SMOKE_CPU} {_cpu_seconds():.3f}", flush=True)
                if os.environ.get(SMOKE_MODULES_ENV):
                    print(SMOKE_MODULES, " ".join(sorted(sys.modules)), flush=True)
            self.painted.emit()
        return False

    def filled(self, window: MainWindow) -> None:
        """The real window listed its sessions: with the smoke hook, say so and quit soon."""
        if self._quit_after_ms is not None:
            print(SMOKE_FILLED, flush=True)
            print(f"{SMOKE_FILLED_CPU} {_cpu_seconds():.3f}", flush=True)
            QTimer.singleShot(self._quit_after_ms, window.quit_controller.request_quit)


def _cpu_seconds() -> float:
    cpu = os.times()
    return cpu.user + cpu.system


def _smoke_quit_ms() -> int | None:
    value = os.environ.get(SMOKE_ENV, "").strip()
    if not value:
        return None
    try:
        return max(0, int(value))
    except ValueError:
        print(f"{SMOKE_ENV} must be a number of milliseconds, not {value!r}; ignored.", file=sys.stderr)
        return None


class _QuitOnSignals(QObject):
    """Ctrl+C / SIGTERM quit like the menu does: running turns finish first; while the start
    frame is up, start-up ends as soon as the engine it opens can be closed.

    NOTE: Python runs signal handlers only between bytecodes, and Qt's C++ loop
    may sleep for long; a cheap periodic timer gives the interpreter a chance.
    """

    def __init__(self, frame: StartWindow) -> None:
        super().__init__()
        self.frame = frame
        self.host: WindowHost | None = None
        self._running = True
        self._previous = {sig: signal.signal(sig, self._request) for sig in (signal.SIGINT, signal.SIGTERM)}
        self._wake = QTimer(self)
        self._wake.timeout.connect(lambda: None)
        self._wake.start(250)

    def stop(self) -> None:
        """The run is over: the wake-up timer stops and the earlier handlers are back."""
        self._running = False
        self._wake.stop()
        for sig, previous in self._previous.items():
            if previous is not None:  # None: a handler not set from Python, which cannot be put back
                signal.signal(sig, previous)

    def _request(self, _signum: int, _frame: object) -> None:
        if self._running:
            QTimer.singleShot(0, self._quit)

    def _quit(self) -> None:
        if not self._running:
            return
        if self.host is not None:
            self.host.window.quit_controller.request_quit()
        else:
            self.frame.request_quit()


async def _open_or_explain(data: Home, frame: StartWindow) -> tuple[Kernel, Restored | None] | int:
    """The kernel, or — when the data folder cannot be opened — the storage-fault dialog over the
    start frame until the person restores a backup, retries, or quits (then the fault's exit code,
    as the CLI's). The engine is imported here, after the first paint, on a worker thread: its
    modules hold no Qt, and the frame keeps answering (repaint, Quit) while they load."""
    import asyncio
    import importlib

    await asyncio.to_thread(importlib.import_module, "foya_desktop.engine.bootstrap")
    from foya_desktop.core.errors import FoyaError
    from foya_desktop.engine.bootstrap import open_kernel
    from foya_desktop.store.restore import restore_newest_backup
    from foya_desktop.ui import storage_fault
    from foya_desktop.ui.error_text import error_text

    restored: Restored | None = None
    note = ""
    while True:
        try:
            return await open_kernel(data.root, kind="window"), restored
        except FoyaError as error:
            if frame.quitting:  # asked to quit while it was opening: no dialog to wait on
                return error.exit_code
            frame.say_cannot_open()
            choice = await storage_fault.ask(error, data, note, frame, cancel=frame.quit_requested)
            note = ""
            if choice == "quit":
                return error.exit_code
            frame.say_opening()
            if choice == "restore":
                try:
                    restored = await asyncio.to_thread(restore_newest_backup, data)
                except (FoyaError, OSError) as failed:
                    why = error_text(failed) if isinstance(failed, FoyaError) else str(failed)
                    note = QCoreApplication.translate(
                        "App", "The backup could not be restored: {why}").format(why=why)
