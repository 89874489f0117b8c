"""Notifications where there is no tray: the desktop's ``org.freedesktop.Notifications`` service.

A real session bus (``dbus-daemon --session``) and a tiny notification service of our own
(tests/ui/notification_server.py, a separate process like GNOME Shell's) that records every
``Notify`` call and emits ``ActionInvoked`` as a click on the bubble does. The window runs on the
real kernel without a tray; an approval waits in a session not in view; the service gets one
``Notify`` with the app name, summary, body and the "default" action; its click opens the session
at the waiting card. Skips cleanly without ``dbus-daemon`` (``.ci/run`` installs ``dbus``).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import threading
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QEvent, QObject

from foya_desktop.engine.kernel import Kernel
from foya_desktop.store.home import Home
from foya_desktop.store.preferences import PreferencesFile
from foya_desktop.ui.bridge import EngineBridge
from foya_desktop.ui.main_window import MainWindow
from foya_desktop.ui.tray.desktop_notifications import DesktopNotifications
from tests.fakeprovider import FakeProviderServer, Fault, Reply, ToolCallSpec
from tests.ui.helpers import open_session, settle, show, wait_until
from tests.ui.test_tray import _dispose as dispose
from tests.ui.test_tray import _window as tray_window

ROOT = Path(__file__).parents[2]
pytestmark = pytest.mark.skipif(not shutil.which("dbus-daemon"), reason="needs dbus-daemon (apt-get install dbus)")


@pytest.fixture
def session_bus(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A private session bus; ``DBUS_SESSION_BUS_ADDRESS`` points at it for the test."""
    daemon = subprocess.Popen(["dbus-daemon", "--session", "--nofork", "--print-address=1"],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        assert daemon.stdout is not None
        address = daemon.stdout.readline().strip()
        assert address.startswith("unix:"), address
        monkeypatch.setenv("DBUS_SESSION_BUS_ADDRESS", address)
        yield address
    finally:
        daemon.terminate()
        daemon.wait(10)
        if daemon.stdout is not None:
            daemon.stdout.close()


class NotificationService:
    """The test's notification service process: what it was asked to show, and clicks on it."""

    def __init__(self, address: str) -> None:
        import os
        self.calls: list[dict[str, Any]] = []
        self._ready = threading.Event()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tests.ui.notification_server"], cwd=str(ROOT), text=True,
            env={**os.environ, "DBUS_SESSION_BUS_ADDRESS": address},
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        threading.Thread(target=self._read, daemon=True).start()
        if not self._ready.wait(30):
            raise AssertionError("the notification service did not start: " + self._stderr())

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            record = json.loads(line)
            if record.get("ready"):
                self._ready.set()
            else:
                self.calls.append(record)

    def _stderr(self) -> str:
        return self.process.stderr.read() if self.process.poll() is not None and self.process.stderr else ""

    def click(self, notification_id: int, key: str = "default", activation_token: str = "") -> None:
        """A click on the bubble; ``activation_token``: sent just before, as spec 1.2 services do."""
        assert self.process.stdin is not None
        self.process.stdin.write(f"invoke {notification_id} {key} {activation_token}".rstrip() + "\n")
        self.process.stdin.flush()

    def stop(self) -> None:
        self.process.kill()
        self.process.wait(10)
        for pipe in (self.process.stdin, self.process.stdout, self.process.stderr):
            if pipe is not None:
                pipe.close()


@pytest.fixture
def service(session_bus: str) -> Iterator[NotificationService]:
    running = NotificationService(session_bus)
    yield running
    running.stop()


@pytest.fixture
async def trayless_window(real_kernel: Kernel, tmp_path: Path) -> AsyncIterator[MainWindow]:
    window = MainWindow(real_kernel, EngineBridge(real_kernel.bus), use_tray=False,
                        preferences=PreferencesFile(Home(tmp_path / "foya-home")))
    window.resize(1000, 700)
    window.show()
    await window.start()
    await window.runner.drain()
    yield window
    await window.runner.drain()
    await window.tray_agent.close()
    window.bridge.close()
    window.quit_controller.quitting = True
    window.close()
    window.deleteLater()
    await settle()


async def test_without_a_tray_a_waiting_approval_goes_to_the_notification_service_and_its_click_opens_the_card(
        service: NotificationService, trayless_window: MainWindow, real_kernel: Kernel,
        fake_provider: FakeProviderServer, tmp_path: Path) -> None:
    """SEED-CHECKLIST: tray notifications (needs you; click opens the session at the waiting card)."""
    window = trayless_window
    assert window.quit_controller.tray is None
    project = tmp_path / "proj"
    project.mkdir()
    fake_provider.script(Reply(tool_calls=[ToolCallSpec("write_file", {"path": "notes.md", "content": "hi"})]),
                         Reply(text="Written."))
    other = await open_session(window, real_kernel, title="Elsewhere")
    sid = await open_session(window, real_kernel, title="Writer", workdir=str(project), approval_mode="ask")
    window.pane.composer.input.setPlainText("write the notes")
    window.pane.send()
    await show(window, other)  # the person looks at another session
    await wait_until(lambda: service.calls, timeout=15, what="a Notify call on the session bus")
    (call,) = service.calls
    app_name, replaces, _icon, summary, body, actions, hints, _timeout = call["args"]
    assert call["signature"] == "susssasa{sv}i"  # GDBus services refuse anything else
    assert (app_name, replaces, summary) == ("Foya", 0, "Foya needs you")
    assert body.startswith("Writer: ") and actions == ["default", "Open"]
    assert hints["desktop-entry"] == ["s", "foya"]
    # the service records the call before its reply reaches the window: wait for the reply, too
    await wait_until(lambda: window.tray_agent.desktop.shown == [call["id"]], what="the Notify reply")
    # the person clicks the bubble: the window shows the waiting session at its card
    service.click(call["id"])
    await wait_until(lambda: window.current_session_id() == sid, timeout=10, what="the waiting session opened")
    await window.runner.drain()
    card = window.pane.attention.card
    assert card is not None and card.isVisible()
    card.buttons["once"].click()
    await wait_until((project / "notes.md").exists, what="approved write")
    assert len(service.calls) == 1  # the finish of the session in view is not notified


async def test_a_click_on_someone_elses_notification_or_another_action_opens_nothing(
        service: NotificationService, trayless_window: MainWindow) -> None:
    opened: list[tuple[str, str]] = []
    window = trayless_window
    window.tray_agent.open_requested.connect(lambda *a: opened.append(a))
    notification_id = await window.tray_agent.desktop.notify("Summary", "Body", "Open")
    # the service answers on the bus before the test's reader thread has read its record
    await wait_until(lambda: service.calls, timeout=15, what="the Notify call recorded")
    assert notification_id == 1 and service.calls[0]["args"][3] == "Summary"
    service.click(notification_id + 41)  # not ours
    service.click(notification_id, "dismiss")  # not the default action
    await settle(30)
    assert opened == []
    # a grouped message replaces the last bubble instead of stacking another
    again = await window.tray_agent.desktop.notify("Updates in Foya: 2", "a\nb", "Open", replace=True)
    await wait_until(lambda: len(service.calls) >= 2, timeout=15, what="the second Notify call recorded")
    assert again == notification_id and service.calls[-1]["args"][1] == notification_id


async def test_no_session_bus_or_no_service_means_no_desktop_notification(
        monkeypatch: pytest.MonkeyPatch, session_bus: str, qapp: object) -> None:
    """Without a service the tray agent still alerts the window on the task bar (tests/ui/test_tray.py)."""
    nobody = DesktopNotifications()
    assert await nobody.notify("s", "b", "Open") == 0 and nobody.available is False  # a bus, no service
    await nobody.close()
    monkeypatch.delenv("DBUS_SESSION_BUS_ADDRESS")
    monkeypatch.delenv("XDG_RUNTIME_DIR", raising=False)
    no_bus = DesktopNotifications()
    assert await no_bus.notify("s", "b", "Open") == 0 and no_bus.available is False


ERROR_OBJECT = Reply(fault=Fault.status(200, body={"error": {"message": "model 'fake-model' is not loaded",
                                                             "type": "invalid_request_error"}}))
"""A server that answers 200 with an error object instead of a reply."""


class _Activations(QObject):
    """The activation token in the environment each time the window is shown (``bring_to_front``
    hands the token to Qt's platform plugin through ``XDG_ACTIVATION_TOKEN`` while it shows it)."""

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.tokens: list[str] = []
        window.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Show:
            self.tokens.append(os.environ.get("XDG_ACTIVATION_TOKEN", ""))
        return False


@pytest.mark.parametrize("grouped", [False, True])
async def test_clicking_a_failed_or_grouped_notification_brings_the_hidden_window_back_with_its_token(
        service: NotificationService, real_kernel: Kernel, fake_provider: FakeProviderServer,
        tmp_path: Path, shots: Path, grouped: bool) -> None:
    """The desktop's activation token for the click is what lets the window come to the front
    (without it a Wayland compositor refuses and the click only closes the bubble); the failure
    says the status the server really sent (200 with an error object, not "HTTP 400")."""
    fake_provider.script(*[ERROR_OBJECT] * 4)
    window = await tray_window(real_kernel, PreferencesFile(Home(tmp_path / "foya-home")), use_tray=True)
    try:
        shown = _Activations(window)
        first = await open_session(window, real_kernel, title="First")
        second = await open_session(window, real_kernel, title="Second") if grouped else first
        await show(window, await open_session(window, real_kernel, title="Elsewhere"))
        window.close()  # to the tray
        assert not window.isVisible()
        await real_kernel.turns.send(first, "hello")
        await wait_until(lambda: service.calls, timeout=15, what="the failure notified")
        if grouped:
            await real_kernel.turns.send(second, "hello too")
            await wait_until(lambda: len(service.calls) == 2, timeout=15, what="the grouped notification")
        call = service.calls[-1]
        _app, replaces, _icon, summary, body, actions, _hints, _timeout = call["args"]
        assert actions == ["default", "Open"]
        if grouped:
            assert (replaces, summary) == (service.calls[0]["id"], "Updates in Foya: 2")
            assert body.splitlines() == ["Reply failed — Second", "Reply failed — First"]
        else:
            assert summary == "Reply failed" and body.startswith("First: ")
            assert "HTTP 200" in body and "HTTP 400" not in body, body
        await wait_until(lambda: call["id"] in window.tray_agent.desktop.shown, what="the Notify reply")
        service.click(call["id"], activation_token=f"token-{call['id']}-{grouped}")
        await wait_until(window.isVisible, timeout=10, what="the window back")
        await wait_until(lambda: window.current_session_id() == second, timeout=10, what="the session opened")
        assert shown.tokens[-1] == f"token-{call['id']}-{grouped}"
        assert "XDG_ACTIVATION_TOKEN" not in os.environ  # used once: commands must not inherit it
        await settle()
        window.grab().save(str(shots / f"notification-click-{'grouped' if grouped else 'failed'}.png"))
    finally:
        await window.tray_agent.close()  # leaves the session bus
        await dispose(window)
