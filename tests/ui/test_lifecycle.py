"""Closing the window with a tray hides it; Quit waits for running turns, "Quit now" stops them."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from foya_desktop.ui.bridge import EngineBridge
from foya_desktop.ui.main_window import MainWindow
from tests.ui.fakes import FakeKernel
from tests.ui.helpers import settle


@pytest.fixture
async def tray_window(fake_kernel: FakeKernel) -> AsyncIterator[MainWindow]:
    bridge = EngineBridge(fake_kernel.bus)
    window = MainWindow(fake_kernel, bridge, use_tray=True)
    window.show()
    await window.start()
    yield window
    await window.runner.drain()
    bridge.close()
    window.quit_controller.quitting = True
    if window.quit_controller.tray is not None:
        window.quit_controller.tray.hide()
    window.close()
    window.deleteLater()


async def test_closing_hides_to_the_tray_and_keeps_running(tray_window: MainWindow) -> None:
    finished: list[int] = []
    tray_window.quit_controller.finished.connect(lambda: finished.append(1))
    assert tray_window.quit_controller.tray is not None
    tray_window.close()
    await settle()
    assert not tray_window.isVisible() and finished == []
    tray_window.quit_controller.show_window()
    assert tray_window.isVisible()
