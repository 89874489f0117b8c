"""The store's worker lanes (``store/lane.py``) keep what the thread-pool executor they replaced guaranteed:
one thread, submission order, errors to the caller, a job whose awaiting caller was cancelled before it
started never runs, and shutdown runs what is queued (issue 14: a cheaper hand-off, same semantics)."""

from __future__ import annotations

import asyncio
import threading

import pytest

from foya_desktop.store.lane import Lane


async def test_jobs_run_in_order_on_one_named_thread_and_errors_reach_the_caller() -> None:
    lane = Lane("foya-test-lane")
    try:
        seen: list[tuple[int, str]] = []

        def job(i: int) -> int:
            seen.append((i, threading.current_thread().name))
            return i * 2

        results = await asyncio.gather(*(lane.run(lambda i=i: job(i)) for i in range(50)))  # type: ignore[misc]
        assert results == [i * 2 for i in range(50)]
        assert seen == [(i, "foya-test-lane") for i in range(50)]

        def fail() -> None:
            raise ValueError("disk said no")
        with pytest.raises(ValueError, match="disk said no"):
            await lane.run(fail)
        assert lane.submit(lambda: "sync").result(timeout=5) == "sync"
        with pytest.raises(ValueError):
            lane.submit(fail).result(timeout=5)
    finally:
        lane.shutdown(wait=True)


async def test_a_cancelled_caller_skips_a_job_that_had_not_started() -> None:
    lane = Lane("foya-test-lane")
    gate = threading.Event()
    ran: list[str] = []
    try:
        blocker = asyncio.ensure_future(lane.run(lambda: gate.wait(5)))
        waiting = asyncio.ensure_future(lane.run(lambda: ran.append("cancelled one")))
        await asyncio.sleep(0.05)
        waiting.cancel()
        gate.set()
        assert await blocker is True
        with pytest.raises(asyncio.CancelledError):
            await waiting
        def note() -> str:
            ran.append("next")
            return "ok"
        assert await lane.run(note) == "ok"
        assert ran == ["next"]
    finally:
        lane.shutdown(wait=True)


def test_shutdown_runs_the_queued_jobs_then_stops() -> None:
    lane = Lane("foya-test-lane")
    gate = threading.Event()
    done: list[int] = []
    lane.submit(lambda: gate.wait(5))
    futures = [lane.submit(lambda i=i: done.append(i)) for i in range(5)]  # type: ignore[misc]
    gate.set()
    lane.shutdown(wait=True)
    assert done == [0, 1, 2, 3, 4] and all(f.done() for f in futures)


async def test_a_call_after_shutdown_fails_at_once_instead_of_waiting_forever() -> None:
    """As the executor did ("cannot schedule new futures after shutdown"): a late store call — a window
    task meeting a closed store at quit — gets an error, never a future nobody will ever settle."""
    lane = Lane("foya-test-lane")
    lane.shutdown(wait=True)
    with pytest.raises(RuntimeError, match="closed"):
        await asyncio.wait_for(lane.run(lambda: 1), 5)
    with pytest.raises(RuntimeError, match="closed"):
        lane.submit(lambda: 1)
