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
from typing import Any, TypeVar, cast

T = TypeVar("T")

_Job = tuple[Callable[[], Any], "asyncio.Future[Any] | concurrent.futures.Future[Any]",
             asyncio.AbstractEventLoop | None]
"""(call, the caller's future, its loop — ``None`` for a ``concurrent.futures.Future``)."""


def _settle(future: asyncio.Future[Any], result: Any, error: BaseException | None) -> None:
    """On the loop: hand the result over, unless the caller was cancelled meanwhile."""
    if future.done():
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(result)


class Lane:
    """A single named worker thread."""

    def __init__(self, name: str) -> None:
        self._jobs: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self._closed = False
        self._thread = threading.Thread(target=self._work, name=name, daemon=True)
        self._thread.start()

    def _work(self) -> None:
        """Run the jobs in order. One job is a tuple, not closures built per call (``run``'s hand-off
        is on the append hot path: issue 14)."""
        while (job := self._jobs.get()) is not None:
            call, future, loop = job
            del job
            if loop is None:
                assert isinstance(future, concurrent.futures.Future)
                if not future.set_running_or_notify_cancel():
                    continue
                try:
                    future.set_result(call())
                except BaseException as exc:  # handed to the caller, as an executor does
                    future.set_exception(exc)
            elif not future.cancelled():
                try:
                    result, error = call(), None
                except BaseException as exc:
                    result, error = None, exc
                with contextlib.suppress(RuntimeError):  # the loop closed while the job ran: nobody waits
                    loop.call_soon_threadsafe(_settle, cast("asyncio.Future[Any]", future), result, error)
                del result, error
            del call, future, loop

    def _put(self, job: _Job) -> None:
        if self._closed:
            raise RuntimeError("cannot run a store call after the store was closed")
        self._jobs.put(job)

    def submit(self, call: Callable[[], T]) -> concurrent.futures.Future[T]:
        """Queue ``call``; a ``concurrent.futures.Future`` for blocking callers (start-up, CLI)."""
        future: concurrent.futures.Future[T] = concurrent.futures.Future()
        self._put((call, future, None))
        return future

    async def run(self, call: Callable[[], T]) -> T:
        """Run ``call`` on the lane and await its result (one ``call_soon_threadsafe`` back)."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        self._put((call, future, loop))
        return await future

    def shutdown(self, wait: bool = True) -> None:
        """Stop after the queued jobs; ``wait`` joins the thread."""
        self._closed = True
        self._jobs.put(None)
        if wait and self._thread is not threading.current_thread():
            self._thread.join()
