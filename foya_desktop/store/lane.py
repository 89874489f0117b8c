"""One worker thread that runs the store's calls in order, with a cheap hand-off to asyncio.

Why not ``ThreadPoolExecutor`` + ``run_in_executor``: for the store's many small calls (one
message appended per call) the executor's hand-off — a ``concurrent.futures.Future`` with its
condition variable, ``wrap_future``'s chained callbacks and state copying — cost about as much
as SQLite's own work on a loaded machine, and was the largest part of the gap between an append
through the store and one through raw ``sqlite3`` (issue 14). Here a job is a queue item; its
result reaches the awaiting coroutine with one ``call_soon_threadsafe``.

The executor's semantics the store relied on are kept: jobs run one at a time in submission
order on one named thread (SQLite connections are per thread); a job whose awaiting caller was
cancelled before it started is skipped; ``shutdown`` runs what is queued, then stops; a call after
``shutdown`` raises ``RuntimeError`` at once (queued, it would wait forever for a thread that is gone).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import queue
import threading
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")

_Job = tuple[Callable[[], Any], Callable[[], bool], Callable[[Any, BaseException | None], None]]
"""(call, skipped?, deliver(result, error))."""


class Lane:
    """A single named worker thread."""

    def __init__(self, name: str) -> None:
        self._jobs: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self._closed = False
        self._thread = threading.Thread(target=self._work, name=name, daemon=True)
        self._thread.start()

    def _work(self) -> None:
        while (job := self._jobs.get()) is not None:
            call, skipped, deliver = job
            if skipped():
                continue
            try:
                result = call()
            except BaseException as exc:  # handed to the caller, as an executor does
                deliver(None, exc)
            else:
                deliver(result, None)
            del job, call, skipped, deliver

    def _put(self, job: _Job) -> None:
        if self._closed:
            raise RuntimeError("cannot run a store call after the store was closed")
        self._jobs.put(job)

    def submit(self, call: Callable[[], T]) -> concurrent.futures.Future[T]:
        """Queue ``call``; a ``concurrent.futures.Future`` for blocking callers (start-up, CLI)."""
        future: concurrent.futures.Future[T] = concurrent.futures.Future()

        def deliver(result: Any, error: BaseException | None) -> None:
            if error is not None:
                future.set_exception(error)
            else:
                future.set_result(result)
        self._put((call, lambda: not future.set_running_or_notify_cancel(), deliver))
        return future

    async def run(self, call: Callable[[], T]) -> T:
        """Run ``call`` on the lane and await its result (one ``call_soon_threadsafe`` back)."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()

        def settle(result: Any, error: BaseException | None) -> None:
            if future.done():
                return  # the caller was cancelled meanwhile
            if error is not None:
                future.set_exception(error)
            else:
                future.set_result(result)

        def deliver(result: Any, error: BaseException | None) -> None:
            with contextlib.suppress(RuntimeError):  # the loop closed while the job ran: nobody waits
                loop.call_soon_threadsafe(settle, result, error)
        self._put((call, future.cancelled, deliver))
        return await future

    def shutdown(self, wait: bool = True) -> None:
        """Stop after the queued jobs; ``wait`` joins the thread."""
        self._closed = True
        self._jobs.put(None)
        if wait and self._thread is not threading.current_thread():
            self._thread.join()
