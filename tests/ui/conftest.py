"""UI test fixtures: offscreen Qt, Qt warnings fail tests, asyncio on a qasync loop.

How async UI tests run (reuse this for end-to-end tests)
--------------------------------------------------------
pytest-asyncio (``asyncio_mode = auto``) runs every ``async def`` test of this
directory on a **qasync** ``QEventLoop`` bound to the one ``QApplication``:
the ``pytest_asyncio_loop_factories`` hook below hands pytest-asyncio a loop
factory, exactly as ``foya_desktop.app`` runs the real app. So inside a test,
Qt signals, timers, widget events *and* engine coroutines all progress while
you ``await``.

Rules that keep it robust:

* In ``async def`` tests, never use ``qtbot.waitSignal`` / ``qtbot.waitUntil`` /
  ``qtbot.wait``: they spin a nested Qt event loop inside qasync's running
  loop (re-entrancy breaks task stepping). Use the awaitable helpers in
  ``tests/ui/helpers.py`` instead: ``await wait_until(pred)``,
  ``await wait_signal(obj.signal)``, ``await settle()``.
* Never call ``QApplication.processEvents()`` inside a coroutine: it runs other
  tasks' steps re-entrantly, asyncio refuses to enter them, and their wake-ups
  are silently lost (the task hangs; the runner then hangs at teardown).
* Synchronous tests (plain ``def``) may use every qtbot helper as usual.
* Fixtures that need the loop (kernel, window) are ``async`` fixtures; they
  then run on the same qasync loop as the test (function scope).

Fixtures:
    ``fake_kernel``    an in-memory ``FakeKernel`` (tests/ui/fakes.py) that records calls
    ``fake_window``    a ``MainWindow`` on the fake kernel, started, shown offscreen
    ``fake_provider``  the real HTTP fake model server (tests/fakeprovider)
    ``real_kernel``    a real kernel on a temp SQLite home, with connection "fake" → fake_provider
    ``real_window``    a ``MainWindow`` on ``real_kernel``, started, shown offscreen
    ``shots``          directory for screenshots (``$FOYA_SHOTS`` or /tmp/foya-shots)
"""

from __future__ import annotations

import asyncio
import gc
import os
from collections.abc import AsyncIterator, Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest
import qasync
from PySide6.QtWidgets import QApplication, QDialog

from foya_desktop.core.model import Connection, ProviderKind
from foya_desktop.engine.bootstrap import build_kernel
from foya_desktop.engine.kernel import Kernel
from foya_desktop.providers.base import RetryPolicy, Timeouts
from foya_desktop.providers.keys import KeyStore
from foya_desktop.store.home import Home
from foya_desktop.store.preferences import PreferencesFile
from foya_desktop.ui import i18n
from foya_desktop.ui.bridge import EngineBridge
from foya_desktop.ui.main_window import MainWindow
from tests.fakeprovider import FakeProviderServer
from tests.helpers.fake_keyring import MemoryKeyring
from tests.ui.fakes import FakeKernel

UI_DIR = Path(__file__).parent

# Qt chatter of the offscreen platform that says nothing about our code.
QT_LOG_IGNORE = ("propagateSizeHints", "QFont::setPointSizeF", "This plugin does not support",
                 "systemTrayWindowChanged")


def _qapp() -> QApplication:
    app = QApplication.instance()
    if isinstance(app, QApplication):
        return app
    return QApplication(["foya-tests"])


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Empty the clipboard before the interpreter ends: Qt's exit handlers would otherwise destroy
    clipboard data made in Python after Python is gone (a SIGSEGV at exit, exit code 139)."""
    app = QApplication.instance()
    if isinstance(app, QApplication):
        app.clipboard().clear()


def pytest_asyncio_loop_factories(config: pytest.Config, item: pytest.Item) -> Mapping[str, Callable[[], Any]]:
    """Async tests under tests/ui run on a qasync loop over the QApplication."""
    return {"qasync": lambda: qasync.QEventLoop(_qapp())}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Qt warnings fail UI tests (pytest-qt captures them through qInstallMessageHandler)."""
    for item in items:
        if UI_DIR in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.qt_log_level_fail("WARNING"))
            item.add_marker(pytest.mark.qt_log_ignore(*QT_LOG_IGNORE))


@pytest.fixture(scope="session", autouse=True)
def _english(qapp: QApplication) -> None:
    """The catalogues the app installs at start-up for English (its plural forms: "5 messages",
    not "5 message(s)"), so a test run alone sees the same text as in a whole run."""
    i18n.install("en", qapp)


@pytest.fixture(autouse=True)
def _app_style(qapp: QApplication) -> None:
    """The style the app uses on Linux, so sizes in tests match the real window.

    Closing the last window must not quit the application: that would stop the
    qasync loop in the middle of a test (the app itself quits explicitly, too).
    """
    qapp.setStyle("Fusion")
    qapp.setQuitOnLastWindowClosed(False)


@pytest.fixture(autouse=True)
def _collect_on_the_gui_thread() -> Iterator[None]:
    """Cyclic garbage is collected here, on the GUI thread, and nowhere else during a test.

    NOTE: objects in reference cycles are otherwise freed by whichever thread triggers the next
    automatic collection — often the store's writer thread or the fake provider's server
    threads. A Qt object with running timers destroyed there logs "Timers cannot be stopped
    from another thread" and corrupts the event dispatcher's timer ids: qasync callbacks get
    lost (``runner.drain()`` hangs) or the process crashes later.
    """
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
        gc.collect()


@pytest.fixture
def shots() -> Path:
    """Where screenshots go; open them and look."""
    path = Path(os.environ.get("FOYA_SHOTS", "/tmp/foya-shots"))
    path.mkdir(parents=True, exist_ok=True)
    return path


@pytest.fixture
def fake_kernel() -> FakeKernel:
    """An in-memory kernel that records every call (fakes over mocks)."""
    return FakeKernel()


@pytest.fixture
async def fake_window(fake_kernel: FakeKernel) -> AsyncIterator[MainWindow]:
    """The main window on the fake kernel, started (tree filled) and shown offscreen."""
    async with _window(fake_kernel) as window:
        yield window


@pytest.fixture
def fake_provider() -> Iterator[FakeProviderServer]:
    """The real HTTP fake model server on 127.0.0.1."""
    with FakeProviderServer() as server:
        yield server


@pytest.fixture
async def real_kernel(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                      fake_provider: FakeProviderServer) -> AsyncIterator[Kernel]:
    """A real kernel (SQLite in a temp FOYA_HOME) with a keyless connection "fake"."""
    root = tmp_path / "foya-home"
    monkeypatch.setenv("FOYA_HOME", str(root))
    kernel = build_kernel(Home(root), keystore=KeyStore(MemoryKeyring()),
                          timeouts=Timeouts(connect=2, first_byte=5, idle=5, total=30),
                          retry=RetryPolicy(max_attempts=2, base_delay=0.01, max_delay=0.05))
    await kernel.connections.add_connection(Connection("fake", ProviderKind.OPENAI, fake_provider.base_url, "fake-model"))
    yield kernel
    await kernel.close()


@pytest.fixture
async def real_window(real_kernel: Kernel) -> AsyncIterator[MainWindow]:
    """The main window on the real kernel, started and shown offscreen."""
    async with _window(real_kernel) as window:
        yield window


class _window:
    """Build, start and show a window; on exit close it without the tray and drain its tasks."""

    def __init__(self, kernel: Any, bridge: EngineBridge | None = None,
                 preferences: PreferencesFile | None = None) -> None:
        self.bridge = bridge or EngineBridge(kernel.bus)
        self.window = MainWindow(kernel, self.bridge, use_tray=False, preferences=preferences)

    async def __aenter__(self) -> MainWindow:
        self.window.resize(1200, 800)
        self.window.show()
        await self.window.start()
        await self.window.runner.drain()
        return self.window

    async def __aexit__(self, *exc: object) -> None:
        # A test that failed with a dialog open leaves its flow awaiting that dialog: close them
        # so the flows end, and never wait forever (a hang would hide the failure's message).
        for widget in QApplication.topLevelWidgets():
            if isinstance(widget, QDialog) and widget.isVisible():
                widget.reject()
        await asyncio.wait_for(self.window.runner.drain(), 30)
        self.window.runner.close()  # closing delivers events whose slots would start more work
        self.bridge.close()
        self.window.quit_controller.quitting = True  # closing in tests is not quitting the app
        self.window.close()
        # NOTE: wait until Qt has really destroyed the window, here on the GUI thread. Left to the
        # garbage collector, a window in a reference cycle may be freed by whichever thread triggers
        # a collection (the store's writer, the fake provider): "Timers cannot be stopped from
        # another thread", then a crash.
        gone: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.window.destroyed.connect(lambda *_: None if gone.done() else gone.set_result(None))
        self.window.deleteLater()
        await asyncio.wait_for(gone, 5)
