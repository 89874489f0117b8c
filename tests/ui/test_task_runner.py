"""The window's TaskRunner after the window starts closing: nothing new starts.

Closing a window still delivers events whose slots spawn work (a window activation re-checks
the project folders 150 ms later). Such a task, started after the last drain, outlived the
window and met a closed store — and one started while the loop was stopping never ran its
first step, so pytest-asyncio's final cancel-and-wait hung a whole test run.
"""

from __future__ import annotations

import asyncio
import warnings
from collections.abc import Coroutine
from typing import Any

from PySide6.QtCore import QCoreApplication, QEvent

from foya_desktop.engine.kernel import Kernel
from foya_desktop.ui.main_window import MainWindow
from tests.ui.helpers import settle, wait_until


async def test_a_closing_window_starts_no_new_work(real_window: MainWindow, real_kernel: Kernel) -> None:
    await real_kernel.sessions.create_session(title="Somewhere")
    runner = real_window.runner
    started: list[asyncio.Task[Any] | None] = []
    spawn = runner.spawn

    def counting(coro: Coroutine[Any, Any, Any], what: str = "") -> asyncio.Task[Any] | None:
        task = spawn(coro, what)
        started.append(task)
        return task

    runner.spawn = counting  # type: ignore[method-assign]
    QCoreApplication.sendEvent(real_window, QEvent(QEvent.Type.WindowActivate))
    await wait_until(lambda: started != [], 5, "an activation re-checks the project folders")
    assert started[0] is not None, "an open window starts the check"
    # the sidebar filling in may start the same check once more (its rows re-check the folders
    # too): let every check the open window starts come and finish before it closes
    await wait_until(lambda: not real_window.project_actions._check_timer.isActive(), 5, "no check is due")
    await settle()
    await runner.drain()
    before = len(started)

    runner.close()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a dropped coroutine is closed, never "never awaited"
        QCoreApplication.sendEvent(real_window, QEvent(QEvent.Type.WindowActivate))
        await wait_until(lambda: len(started) == before + 1, 5, "the activation's check comes")
        await settle()
    assert started[before:] == [None] and runner.pending == 0

    async def later() -> None:
        raise AssertionError("a closed runner must not run anything")

    assert runner.spawn(later(), "late") is None
