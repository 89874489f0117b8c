"""Garbage collection on the GUI thread only.

Python's cyclic collector runs on whichever thread happens to allocate; if
that is a store or HTTP worker thread and the garbage holds Qt objects, Qt
complains ("Timers cannot be stopped from another thread") or crashes.
Automatic collection is switched off and a timer on the GUI thread collects
instead, generation by generation as the thresholds say (the approach
qutebrowser uses).

A full (generation 2) pass walks every tracked object, and a window with its
engine holds 60,000–210,000 of them (modules, Qt wrappers, the kernel): one pass
took 50–130 ms, a frozen frame whenever it ran — in the middle of paging up a
long session, for one (issue 14: no frame over 16 ms). What start-up made lives
until quit, so :meth:`freeze_startup` moves it out of the collector's view
(``gc.freeze``) once the window is up: later passes walk only what was made
since (a few milliseconds). Reference counting still frees frozen objects; only
a cycle among start-up's own objects would wait for quit.

What came since can be large too: sending the first message into a 50,000-message session
compiles its whole history (hundreds of thousands of objects), and a full pass over them took
144–183 ms in the middle of that send. So a full pass waits for a quiet moment — a tick in which
the process used under :data:`QUIET_CPU_SHARE` of a core and allocated less than one young
generation's worth — when nobody waits on a frame; the young generations (a few thousand objects
each) are still collected at every tick. Only if the process stays busy for
:data:`FULL_PASS_OVERDUE` ticks' worth of due passes does a full pass run anyway, so cyclic
garbage cannot grow without bound under a window that never rests (eight VPs streaming for an
hour). Every collection the timer runs is timed (:attr:`GuiThreadCollector.pauses`) and
``benchmarks.first_message`` / ``benchmarks.timeline`` print their histogram.
"""

from __future__ import annotations

import collections
import gc
import itertools
import time

from PySide6.QtCore import QObject, QTimer

INTERVAL_MS = 1000

QUIET_CPU_SHARE = 0.05
"""A tick is quiet when the process used less than this share of one core since the last one."""

FULL_PASS_OVERDUE = 50
"""A full pass runs even while busy once this many young-generation passes were made since the
last one (the threshold asks for 10; at one tick a second, minutes of uninterrupted work)."""

PAUSE_BUCKETS_MS = (1, 4, 8, 16, 50)


class GuiThreadCollector(QObject):
    """Owns the timer; ``start()`` disables automatic collection, ``stop()`` restores it."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._timer = QTimer(self)
        self._timer.setInterval(INTERVAL_MS)
        self._timer.timeout.connect(self.collect)
        self.pauses: collections.deque[tuple[int, float]] = collections.deque(maxlen=10_000)
        """(generation, seconds) of each collection this timer ran, the newest last."""
        self._mark = (time.monotonic(), time.process_time())

    def start(self) -> None:
        """Take over collection."""
        gc.disable()
        self._timer.start()

    def stop(self) -> None:
        """Give collection back to Python."""
        self._timer.stop()
        gc.enable()

    def freeze_startup(self) -> None:
        """Start-up is done: what it made is never collected again (see the module docstring)."""
        gc.freeze()

    def collect(self) -> None:
        """Collect the highest generation whose allocation count passed its threshold — a full
        pass only in a quiet tick, or once it is long overdue (see the module docstring)."""
        thresholds = gc.get_threshold()
        counts = gc.get_count()
        quiet = self._quiet(counts[0] < thresholds[0])
        for generation in (2, 1, 0):
            if counts[generation] <= thresholds[generation]:
                continue
            if generation == 2 and not quiet and counts[2] < FULL_PASS_OVERDUE:
                continue  # a young pass now; the full one waits for a quiet tick
            started = time.perf_counter()
            gc.collect(generation)
            self.pauses.append((generation, time.perf_counter() - started))
            return

    def _quiet(self, few_allocations: bool) -> bool:
        """Whether the process rested since the last tick (little CPU, few allocations)."""
        wall, cpu = time.monotonic(), time.process_time()
        last_wall, last_cpu = self._mark
        self._mark = (wall, cpu)
        return few_allocations and cpu - last_cpu < QUIET_CPU_SHARE * max(wall - last_wall, 1e-3)

    def histogram(self) -> str:
        """The pauses so far, counted by length, one line (for the benchmarks)."""
        edges = (0, *PAUSE_BUCKETS_MS)
        counts = [0] * (len(edges))
        for _, seconds in self.pauses:
            ms = seconds * 1000
            counts[sum(1 for edge in edges[1:] if ms >= edge)] += 1
        labels = [f"<{PAUSE_BUCKETS_MS[0]} ms", *(f"{a}–{b} ms" for a, b in itertools.pairwise(
            PAUSE_BUCKETS_MS)), f"≥{PAUSE_BUCKETS_MS[-1]} ms"]
        worst = max((s for _, s in self.pauses), default=0.0) * 1000
        full = sum(1 for g, _ in self.pauses if g == 2)
        return (f"GC pauses on the GUI thread: {len(self.pauses)} ({full} full) — "
                + ", ".join(f"{label}: {n}" for label, n in zip(labels, counts, strict=True))
                + f"; longest {worst:.1f} ms")
