"""Prefixed, time-sortable identifiers (``ses_…``, ``msg_…``).

Sorting ids as strings sorts them by creation time, which keeps SQLite
indexes append-friendly and makes logs readable.
"""

from __future__ import annotations

import os
import threading
import time

_lock = threading.Lock()
_last = [0, 0]


def new_id(prefix: str) -> str:
    """Return ``prefix_`` + 12 hex digits of milliseconds + a counter + randomness.

    Ids made in the same millisecond by one process still sort in creation
    order because of the monotonic counter.
    """
    with _lock:
        now = time.time_ns() // 1_000_000
        if now <= _last[0]:
            now = _last[0]
            _last[1] += 1
        else:
            _last[0], _last[1] = now, 0
        counter = _last[1]
    return f"{prefix}_{now:012x}{counter:04x}{os.urandom(4).hex()}"


def now_ms() -> int:
    """Wall-clock time in milliseconds, the unit every timestamp in Foya uses."""
    return time.time_ns() // 1_000_000
