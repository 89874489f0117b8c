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
"""

from __future__ import annotations

import gc

from PySide6.QtCore import QObject, QTimer

INTERVAL_MS = 1000


class GuiThreadCollector(QObject):
    """Owns the timer; ``start()`` disables automatic collection, ``stop()`` restores it."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._timer = QTimer(self)
        self._timer.setInterval(INTERVAL_MS)
        self._timer.timeout.connect(self.collect)

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
        """Collect each generation whose allocation count passed its threshold."""
        thresholds = gc.get_threshold()
        counts = gc.get_count()
        for generation in (2, 1, 0):
            if counts[generation] > thresholds[generation]:
                gc.collect(generation)
                return
