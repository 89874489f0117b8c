"""Running coroutines from Qt slots, and awaiting dialogs without nested loops.

qasync runs asyncio inside Qt's event loop. Two pitfalls shape this module:

* A task nobody holds a reference to may be garbage-collected mid-flight,
  and an exception in a fire-and-forget task is silently lost. ``TaskRunner``
  keeps every task it starts and reports failures as a signal in plain words.
* ``QDialog.exec()`` inside a coroutine starts a nested event loop, which
  re-enters qasync and breaks it. ``run_dialog`` uses ``open()`` and awaits
  a future resolved from ``finished``.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from typing import Any

from PySide6.QtCore import QCoreApplication, QObject, Signal
from PySide6.QtWidgets import QDialog

from foya_desktop.core.errors import FoyaError
from foya_desktop.ui.error_text import error_text

log = logging.getLogger(__name__)


class TaskRunner(QObject):
    """Starts coroutines as tasks, keeps them alive, reports their failures.

    Signals:
        failed(str): a task raised; the text is fit to show the person.
    """

    failed = Signal(str)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._tasks: set[asyncio.Task[Any]] = set()
        self._closed = False

    def spawn(self, coro: Coroutine[Any, Any, Any], what: str = "") -> asyncio.Task[Any] | None:
        """Run ``coro`` in the background; ``what`` names it in error reports.

        With no asyncio loop running (Qt delivering a late timer or event while the app shuts
        down), there is nothing to run it on: it is dropped (``None``) instead of failing with
        "no running event loop" in the status bar.
        """
        if self._closed:
            log.debug("window closing; %s not started", what or coro)
            coro.close()
            return None
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            log.debug("no event loop running; %s not started", what or coro)
            coro.close()
            return None
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(lambda t: self._finished(t, what))
        return task

    def close(self) -> None:
        """Start nothing new: the window is going away and its kernel may be closing.

        NOTE: closing a window still delivers events (a deactivation, a timer) whose slots
        spawn work — re-checking project folders when a window activates. Started after the
        last :meth:`drain`, such a task outlived the window and met a closed store; and one
        started while the loop was being stopped never got its first step, so the loop's
        final cancel-and-wait (pytest-asyncio's runner) waited for it forever.
        """
        self._closed = True

    @property
    def pending(self) -> int:
        """How many tasks are still running (tests wait for zero)."""
        return len(self._tasks)

    async def drain(self) -> None:
        """Wait until every task started so far (and any they start) has finished.

        NOTE: a finished task leaves ``_tasks`` only in its done callback, which the loop runs
        later; and ``gather`` over finished tasks completes without yielding (Python 3.12). So
        wait only for unfinished tasks, and otherwise yield once so those callbacks can run —
        awaiting ``gather`` on the whole set here spun forever without ever yielding.
        """
        while self._tasks:
            pending = [t for t in self._tasks if not t.done()]
            if pending:
                await asyncio.wait(pending)
            else:
                await asyncio.sleep(0)

    def _finished(self, task: asyncio.Task[Any], what: str) -> None:
        self._tasks.discard(task)
        if task.cancelled():
            return
        error = task.exception()
        if error is None:
            return
        if not isinstance(error, FoyaError):
            log.error("%s failed", what or "background task", exc_info=error)
        self.failed.emit(describe_error(error, what))


class Latest:
    """At most one task of a widget at a time, on the window's :class:`TaskRunner`.

    A newer query supersedes the older one (it is cancelled), and because the
    runner holds the task, closing the window drains it too — a find or search
    started just before the window closed does not outlive it.
    """

    def __init__(self, runner: TaskRunner) -> None:
        self._runner = runner
        self._task: asyncio.Task[Any] | None = None

    def start(self, coro: Coroutine[Any, Any, Any], what: str = "") -> None:
        """Cancel the running task, if any, and run ``coro`` instead."""
        self.cancel()
        self._task = self._runner.spawn(coro, what)

    def cancel(self) -> None:
        """Cancel the running task, if any."""
        if self._task is not None and not self._task.done():
            self._task.cancel()
        self._task = None


def describe_error(error: BaseException, what: str = "") -> str:
    """A sentence for the status bar in the window's language (engine errors by their code)."""
    text = error_text(error)
    if not what:
        return text
    return QCoreApplication.translate("TaskRunner", "{what} failed: {error}").format(what=what, error=text)


async def run_dialog(dialog: QDialog) -> int:
    """Show ``dialog`` window-modally and wait for its result code without a nested loop."""
    loop = asyncio.get_running_loop()
    done: asyncio.Future[int] = loop.create_future()

    def on_finished(code: int) -> None:
        if not done.done():
            done.set_result(code)

    dialog.finished.connect(on_finished)
    dialog.open()
    try:
        return await done
    finally:
        dialog.finished.disconnect(on_finished)
