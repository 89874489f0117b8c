"""The event loop's lateness while something runs: one probe for every benchmark (Qt-free, so the
store and operations benchmarks use it without Qt; the timeline's loop is Qt's via qasync)."""

from __future__ import annotations

import asyncio
import contextlib
import time


class LagProbe:
    """Records how late a 1 ms sleep wakes on the loop: each lateness is one busy GUI stretch."""

    TICK = 0.001

    def __init__(self) -> None:
        self.lags: list[float] = []
        self._task: asyncio.Task[None] | None = None

    def start(self) -> LagProbe:
        self.lags = []
        self._task = asyncio.ensure_future(self._run())
        return self

    async def stop(self) -> LagProbe:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        return self

    async def _run(self) -> None:
        last = time.perf_counter()
        while True:
            await asyncio.sleep(self.TICK)
            now = time.perf_counter()
            self.lags.append(max(0.0, now - last - self.TICK))
            last = now

    @property
    def worst(self) -> float:
        return max(self.lags, default=0.0)

    def over(self, limit: float = 0.016) -> int:
        return sum(lag > limit for lag in self.lags)

    def summary(self) -> str:
        ordered = sorted(self.lags) or [0.0]
        p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
        return (f"longest frame {self.worst * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms, "
                f"{self.over()} of {len(self.lags)} frames over 16 ms")
