"""The GUI-thread garbage collector really collects, and gives control back."""

from __future__ import annotations

import gc
import weakref

from foya_desktop.ui.gc_timer import GuiThreadCollector


class _Cycle:
    def __init__(self) -> None:
        self.me = self


def test_collects_cycles_on_the_gui_thread_only_when_asked(qapp: object) -> None:
    collector = GuiThreadCollector()
    collector.start()
    try:
        assert not gc.isenabled()
        gc.collect()
        ref = weakref.ref(_Cycle())
        for _ in range(gc.get_threshold()[0] + 10):
            _Cycle()
        assert ref() is not None  # automatic collection is off
        collector.collect()
        assert ref() is None
    finally:
        collector.stop()
    assert gc.isenabled()
